import { rmSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { createApiClient } from '../../src/api/create-api-client.js';
import type { ApiClient, RawRecord } from '../../src/api/types.js';
import { runSync } from '../../src/extract/run-sync.js';
import type { RunningSimulator } from '../../src/simulator/start-simulator.js';
import { checksums, quietLogger, startSim, sync, syncConfig, tempDataDir } from '../helpers/sync-harness.js';

const cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn();
});

/** The simulator's client, except that every posts page after the first starts with the previous page's last post again. */
function shiftingPagesClient(sim: RunningSimulator): ApiClient {
  const client = createApiClient({
    baseUrl: sim.url,
    apiKey: 'sim-key',
    rps: 500,
    concurrency: 4,
    pageSize: 10,
  });
  return Object.assign(Object.create(client) as ApiClient, {
    async *campaignPosts(campaignId: string, filter?: Parameters<ApiClient['campaignPosts']>[1]) {
      let previous: RawRecord | undefined;
      for await (const page of client.campaignPosts(campaignId, filter)) {
        yield previous ? [previous, ...page] : page;
        previous = page.at(-1);
      }
    },
  });
}

describe('records the API repeats across pages', () => {
  it('are staged once: the warehouse equals a run whose pages did not shift', async () => {
    const sim = await startSim();
    const plainDir = tempDataDir();
    const shiftedDir = tempDataDir();
    cleanup.push(
      () => sim.close(),
      () => rmSync(plainDir, { recursive: true, force: true }),
      () => rmSync(shiftedDir, { recursive: true, force: true }),
    );
    await sync(sim, syncConfig(sim, plainDir));
    const client = shiftingPagesClient(sim);
    // runSync closes the client it is given.
    const summary = await runSync(syncConfig(sim, shiftedDir), {
      logger: quietLogger,
      now: () => sim.clock.now(),
      client,
    });
    expect(summary.rowsByTable.posts).toBeGreaterThan(0);
    expect(await checksums(shiftedDir)).toEqual(await checksums(plainDir));
  });
});
