/**
 * End to end with the simulator's real delivery engine: signed pushes over loopback HTTP into
 * the sink, duplicates and retries included, and a hook whose secret the sink does not hold
 * (every push refused). Hooks are created through the simulator's hook routes.
 */
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { createHookService, type HookService } from '../../src/simulator/hooks/hook-service.js';
import { hookPath, newPathToken } from '../../src/sink/hook-path.js';
import { type RunningSink, startSink } from '../../src/sink/start-sink.js';
import { queryReadOnly } from '../../src/warehouse/read/query-read-only.js';
import { callRoute, sleep } from '../helpers/sim-hooks-server.js';
import { insertHook } from '../helpers/sink-fixtures.js';
import { removableTempDir } from '../helpers/temp-dir.js';

const SECRET = 'e2e-shared-secret-0123456789abcd';

describe('sink with the simulator delivery engine', () => {
  const data = removableTempDir('cw-sink-');
  let sink: RunningSink;
  let service: HookService;
  afterAll(async () => {
    await service?.close();
    await sink?.close();
    data.remove();
  });

  /** Creates the hook on the simulator with `secret`, and registers it locally with `localSecret`. */
  async function createHook(searchId: number, secret: string, localSecret: string): Promise<string> {
    const token = newPathToken();
    const response = await callRoute(service.routes, 'POST', '/v3/hooks', {
      body: { target_url: `${sink.url}${hookPath(token)}`, search_id: searchId },
      headers: { 'x-hook-secret': secret },
    });
    expect(response.status).toBe(201);
    const hook = response.body as { hook_id: string; search_type: string };
    insertHook(data.dir, {
      hookId: hook.hook_id,
      secret: localSecret,
      pathToken: token,
      searchId,
      searchType: hook.search_type,
    });
    return hook.hook_id;
  }

  it('lands every acknowledged document exactly once and refuses forged pushes', async () => {
    sink = await startSink({
      dataDir: data.dir,
      port: 0,
      publishIntervalMs: 600_000,
      logger: pino({ level: 'silent' }),
    });
    service = createHookService({
      seed: 5,
      now: () => new Date(),
      deliveriesPerSecond: 20,
      documentsPerDelivery: 3,
      retryBaseMs: 50,
      duplicateRate: 0.3,
    });
    const searches = service.searches();
    const good = await createHook(searches[0]?.id ?? 1, SECRET, SECRET);
    const forged = await createHook(searches[1]?.id ?? 2, SECRET, 'the-sink-holds-another-secret-xx');
    for (let i = 0; i < 100 && service.attempts().filter((a) => a.status === 200).length < 20; i++)
      await sleep(50);
    const duplicatesSent = service.stats().duplicatesSent ?? 0;
    await service.close();
    await sink.publishNow();
    // The engine re-sent acknowledged bodies: duplicates really reached the sink.
    expect(duplicatesSent).toBeGreaterThan(0);

    const attempts = service.attempts();
    const acknowledged = new Set(
      attempts.filter((a) => a.hookId === good && a.status === 200).flatMap((a) => a.documentIds),
    );
    expect(acknowledged.size).toBeGreaterThan(20);
    expect(attempts.some((a) => a.hookId === forged && a.status === 401)).toBe(true);
    expect(attempts.some((a) => a.hookId === forged && a.status === 200)).toBe(false);

    const stored = await queryReadOnly(
      data.dir,
      'select document_id, count(*) as n from stream_documents where hook_id = ? group by 1',
      [good],
    );
    const storedIds = new Set(stored.rows.map((row) => String(row[0])));
    expect([...acknowledged].filter((id) => !storedIds.has(id))).toEqual([]);
    expect(stored.rows.every((row) => row[1] === 1)).toBe(true);
    const forgedRows = await queryReadOnly(
      data.dir,
      'select count(*) from stream_documents where hook_id = ?',
      [forged],
    );
    expect(forgedRows.rows[0]?.[0]).toBe(0);
    expect(sink.stats().outcomes.bad_signature).toBeGreaterThan(0);
  });
});
