import { afterEach, describe, expect, it } from 'vitest';
import { createApiClient } from '../../src/api/create-api-client.js';
import type { ApiClient } from '../../src/api/types.js';
import { type RunningSimulator, startSimulator } from '../../src/simulator/start-simulator.js';

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0)) await fn();
});

describe('API client against the rate-limited simulator', () => {
  it('pacing at the server rate (burst 1) draws few 429s', async () => {
    const RATE = 50;
    const sim: RunningSimulator = await startSimulator({ rateLimit: { rps: RATE, burst: 1 } });
    const client: ApiClient = createApiClient({
      baseUrl: sim.url,
      apiKey: 'sim-key',
      rps: RATE,
      concurrency: 4,
    });
    cleanup.push(
      () => client.close(),
      () => sim.close(),
    );
    // Arrivals bunched by a busy machine's event loop draw 429s from a burst-1 bucket whatever
    // the client does (2 of 150 on 2026-11-25; 4 of 400 at load 7 on 2026-11-26, both Node 24
    // suites): the test asserts that the client paces (without pacing, most of 4 concurrent
    // requests would meet the bucket empty), not how well on a given machine, which the sync
    // bench's `strict` scenario measures (no 429 against a 25/s burst-1 bucket).
    const REQUESTS = 400;
    await Promise.all(
      Array.from({ length: REQUESTS }, async () => {
        for await (const _page of client.workspaces()) break;
      }),
    );
    expect(client.stats.requests).toBeGreaterThanOrEqual(REQUESTS);
    expect(client.stats.throttled).toBeLessThan(REQUESTS / 20);
  });
});
