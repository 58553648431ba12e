/**
 * Hook management against the simulator on loopback with a real state.sqlite: the registry
 * row and its secret, the merged views, delete on both sides, and one clear line per error
 * status. Deliveries are switched off: this file is about the hook API, not the sink.
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createApiClient } from '../../src/api/create-api-client.js';
import type { ApiClient } from '../../src/api/types.js';
import { explainHookError } from '../../src/service/explain-hook-error.js';
import { HookManager } from '../../src/service/hook-manager.js';
import { type RunningSimulator, startSimulator } from '../../src/simulator/start-simulator.js';
import { eq } from '../../src/state/drizzle.js';
import { hooks } from '../../src/state/schema.js';
import { openStateDb, type StateDb } from '../../src/state/state-db.js';
import { tempDir } from '../helpers/temp-dir.js';

const SINK = 'https://sink.example.test/base/';
const SECRET = 'a-test-secret-of-32-characters-x';

let sim: RunningSimulator | undefined;
let client: ApiClient | undefined;
let state: StateDb | undefined;

afterEach(async () => {
  state?.close();
  await client?.close();
  await sim?.close();
  sim = client = state = undefined;
});

async function setUp(apiKey = 'sim-key') {
  sim = await startSimulator({ hooks: { deliveriesPerSecond: 0 } });
  client = createApiClient({ baseUrl: sim.url, apiKey, rps: 50, concurrency: 2, maxRetries: 0 });
  const dataDir = tempDir('cw-hooks-');
  state = openStateDb(dataDir);
  const searchId = sim.hooks.searches()[0]?.id ?? 0;
  return { manager: new HookManager(client, state), dataDir, searchId, state, sim };
}

describe('HookManager on the simulator', () => {
  it('creates a hook with a unique /hooks/<token> target and keeps the secret the API returned, in a 0600 file', async () => {
    const { manager, dataDir, searchId, state } = await setUp();
    const view = await manager.create({ searchId, sinkUrl: SINK, secret: SECRET });
    expect(view).toMatchObject({ search_id: searchId, secret: 'held', remote: 'present' });
    expect(view.target_url).toMatch(/^https:\/\/sink\.example\.test\/base\/hooks\/[A-Za-z0-9_-]{16,}$/);
    expect(JSON.stringify(view)).not.toContain(SECRET);

    const row = state.db.select().from(hooks).where(eq(hooks.hookId, view.hook_id)).get();
    expect(row?.secret).toBe(SECRET);
    expect(row?.targetUrl).toBe(view.target_url);
    expect(row?.targetUrl?.endsWith(`/hooks/${row?.pathToken}`)).toBe(true);
    expect(statSync(join(dataDir, 'state.sqlite')).mode & 0o777).toBe(0o600);

    const second = await manager.create({ searchId, sinkUrl: SINK });
    expect(second.target_url).not.toBe(view.target_url);
    const generated = state.db.select().from(hooks).where(eq(hooks.hookId, second.hook_id)).get()?.secret;
    expect(generated?.length).toBeGreaterThanOrEqual(32);
  });

  it('merges the API view with the registry: a remote hook without a secret, a local one missing remotely', async () => {
    const { manager, searchId, state } = await setUp();
    const ours = await manager.create({ searchId, sinkUrl: SINK });
    // A hook made by another tool: the API has it, the registry does not.
    const foreign = await client?.createHook({ searchId, targetUrl: 'https://elsewhere.example.test/x' });
    // A registry row the API never had.
    state.db
      .insert(hooks)
      .values({
        hookId: 'gone-1',
        searchId,
        targetUrl: `${SINK}hooks/tok`,
        pathToken: 'tok',
        secret: SECRET,
        createdAt: '2026-01-01T00:00:00Z',
      })
      .run();

    const list = await manager.list();
    const byId = new Map(list.map((v) => [v.hook_id, v]));
    expect(byId.get(ours.hook_id)).toMatchObject({ secret: 'held', remote: 'present' });
    expect(byId.get(String(foreign?.hook.hook_id))).toMatchObject({ secret: 'not held', remote: 'present' });
    expect(byId.get('gone-1')).toMatchObject({ secret: 'held', remote: 'missing' });
    expect(JSON.stringify(list)).not.toContain(SECRET);

    expect(await manager.get('gone-1')).toMatchObject({ remote: 'missing' });
  });

  it('deletes on both sides; a hook already gone remotely is still marked deleted locally', async () => {
    const { manager, searchId, state } = await setUp();
    const view = await manager.create({ searchId, sinkUrl: SINK });
    expect(await manager.delete(view.hook_id)).toEqual({ remote: 'deleted' });
    const row = state.db.select().from(hooks).where(eq(hooks.hookId, view.hook_id)).get();
    expect(row?.deletedAt).toBeTruthy();
    expect(await manager.delete(view.hook_id)).toEqual({ remote: 'already gone' });
    const listed = (await manager.list()).find((v) => v.hook_id === view.hook_id);
    expect(listed).toMatchObject({ remote: 'deleted', secret: 'not held' });
  });

  it('names what went wrong for each error status', async () => {
    const { manager, searchId } = await setUp();
    await expect(manager.create({ searchId: 999_999, sinkUrl: SINK })).rejects.toThrow(
      /no such search: 999999 \(404\)/,
    );
    await expect(manager.get('no-such-hook')).rejects.toThrow(/no such hook: no-such-hook \(404\)/);
    await expect(manager.delete('no-such-hook')).rejects.toThrow(/no such hook/);
    await expect(manager.create({ searchId, sinkUrl: SINK, secret: 'short' })).rejects.toThrow(
      /invalid \(400\)/,
    );
    // The manager never repeats a target (fresh token each time), so the 409 is provoked directly.
    const a = await manager.create({ searchId, sinkUrl: SINK });
    const targetUrl = a.target_url ?? '';
    const conflict = await client?.createHook({ searchId, targetUrl }).catch((e: unknown) => e);
    expect(explainHookError(conflict, { operation: 'create', searchId, targetUrl })).toMatchObject({
      message: expect.stringMatching(/a hook already exists for search \d+ and target https:\/\/.+ \(409\)/),
      exitCode: 1,
    });
  });

  it('explains 401 (bad key) and 403 (not entitled to streaming)', async () => {
    const bad = await setUp('wrong-key');
    await expect(bad.manager.list()).rejects.toThrow(/refused the key \(401\): check CW_API_KEY/);
    await client?.close();
    await sim?.close();
    state?.close();
    const limited = await setUp('sim-influencers-key');
    await expect(limited.manager.list()).rejects.toThrow(/not entitled to streaming \(403\)/);
  });
});
