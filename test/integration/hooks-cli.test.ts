/**
 * `hooks` and `schemas fetch` as a user runs them (the built CLI in a child process) against
 * the simulator on loopback: what they print, the 0600 state file, the three schema files,
 * and that neither the API key nor a hook secret ever reaches stdout or stderr.
 */
import { execFile } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSimulator, startSimulator } from '../../src/simulator/start-simulator.js';
import { ensureBuiltCli } from '../helpers/built-cli.js';
import { tempDir } from '../helpers/temp-dir.js';

const run = promisify(execFile);
const API_KEY = 'sim-key';
const SECRET = 'cli-test-secret-0123456789-abcdef';

let sim: RunningSimulator;
let cli: string;
let dataDir: string;

beforeAll(async () => {
  cli = ensureBuiltCli();
  sim = await startSimulator({ hooks: { deliveriesPerSecond: 0 } });
  dataDir = tempDir('cw-hooks-cli-');
}, 120_000);
afterAll(async () => {
  await sim?.close();
});

/** Runs the CLI; resolves with its output and exit code, never rejects. */
async function cw(args: string[], env: Record<string, string> = {}) {
  try {
    const { stdout, stderr } = await run(process.execPath, [cli, ...args], {
      env: {
        ...process.env,
        CW_API_KEY: API_KEY,
        CW_BASE_URL: sim.url,
        CW_DATA_DIR: dataDir,
        CW_LOG_LEVEL: 'warn',
        ...env,
      },
    });
    return { stdout, stderr, code: 0 };
  } catch (error) {
    const e = error as { stdout: string; stderr: string; code: number };
    return { stdout: e.stdout, stderr: e.stderr, code: e.code };
  }
}

function expectNoSecrets(out: { stdout: string; stderr: string }, secret = SECRET) {
  for (const text of [out.stdout, out.stderr]) {
    expect(text).not.toContain(secret);
    expect(text).not.toContain(`apikey: ${API_KEY}`);
    expect(text).not.toMatch(/sim-key/);
  }
}

describe('hooks CLI', () => {
  it('create / list / get / delete, printing the hook but never the secret or the key', async () => {
    const searchId = String(sim.hooks.searches()[0]?.id);
    const created = await cw(
      ['hooks', 'create', '--search-id', searchId, '--target-url', 'https://sink.example.test', '--json'],
      { CW_HOOK_SECRET: SECRET },
    );
    expect(created.code).toBe(0);
    expectNoSecrets(created);
    const hook = JSON.parse(created.stdout) as { hook_id: string; target_url: string; secret: string };
    expect(hook.secret).toBe('held');
    expect(hook.target_url).toMatch(/^https:\/\/sink\.example\.test\/hooks\/[A-Za-z0-9_-]+$/);
    expect(statSync(join(dataDir, 'state.sqlite')).mode & 0o777).toBe(0o600);

    const listed = await cw(['hooks', 'list']);
    expect(listed.stdout).toContain(hook.hook_id);
    expect(listed.stdout).toMatch(/secret\s+held/);
    expectNoSecrets(listed);

    const got = await cw(['hooks', 'get', hook.hook_id, '--json']);
    expect(JSON.parse(got.stdout)).toMatchObject({ hook_id: hook.hook_id, remote: 'present' });
    expectNoSecrets(got);

    const deleted = await cw(['hooks', 'delete', hook.hook_id]);
    expect(deleted).toMatchObject({ code: 0, stdout: `hook ${hook.hook_id} deleted\n` });
    const again = await cw(['hooks', 'delete', hook.hook_id]);
    expect(again.stdout).toContain('deleted locally (the API no longer had it)');
    // Deleted: listed no more (counted), unless --all, which marks it.
    const after = await cw(['hooks', 'list']);
    expect(after.stdout).not.toContain(hook.hook_id);
    expect(after.stdout).toContain('(1 deleted hook(s) not shown: --all lists them)');
    const all = await cw(['hooks', 'list', '--all', '--json']);
    expect(JSON.parse(all.stdout)).toEqual([
      expect.objectContaining({ hook_id: hook.hook_id, status: 'DELETED' }),
    ]);
  }, 60_000);

  it('refuses a CW_HOOK_SECRET outside 16..64 characters before calling the API', async () => {
    for (const bad of ['x'.repeat(15), 'y'.repeat(65)]) {
      const out = await cw(
        ['hooks', 'create', '--search-id', '1', '--target-url', 'https://s.example.test'],
        {
          CW_HOOK_SECRET: bad,
        },
      );
      expect(out.code).toBe(2);
      expect(out.stderr).toMatch(/CW_HOOK_SECRET: a hook secret must be 16 to 64 characters/);
      expect(out.stderr).not.toContain(bad);
    }
  }, 60_000);

  it('prints one clear line for a 404, a 401 and a 403', async () => {
    const missing = await cw(['hooks', 'get', 'no-such-hook']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^campaign-warehouse: hooks get: no such hook: no-such-hook \(404\)/);
    const badKey = await cw(['hooks', 'list'], { CW_API_KEY: 'not-a-key-123' });
    expect(badKey.stderr).toMatch(/refused the key \(401\)/);
    expect(badKey.stderr).not.toContain('not-a-key-123');
    const noStreaming = await cw(['hooks', 'list'], { CW_API_KEY: 'sim-influencers-key' });
    expect(noStreaming.stderr).toMatch(/not entitled to streaming \(403\)/);
  }, 60_000);
});

describe("hooks create and delete keep to the data directory's API account", () => {
  let other: RunningSimulator;
  beforeAll(async () => {
    other = await startSimulator({ seed: 12, hooks: { deliveriesPerSecond: 0 } });
  }, 120_000);
  afterAll(async () => {
    await other?.close();
  });

  it('records the account of the first hook, refuses another (exit 2, one line, nothing created or deleted), and --force-source', async () => {
    const dir = join(tempDir('cw-hooks-source-'), 'data');
    const at = (sim: RunningSimulator, extra: Record<string, string> = {}) => ({
      CW_BASE_URL: sim.url,
      CW_DATA_DIR: dir,
      ...extra,
    });
    const create = (sim: RunningSimulator, ...more: string[]) =>
      cw(
        [
          'hooks',
          'create',
          '--search-id',
          String(sim.hooks.searches()[0]?.id),
          '--target-url',
          'https://sink.example.test',
          '--json',
          ...more,
        ],
        at(sim),
      );

    // A refused key creates nothing, not even the state database.
    const badKey = await cw(
      ['hooks', 'create', '--search-id', '1', '--target-url', 'https://s.example.test'],
      {
        ...at(sim),
        CW_API_KEY: 'not-a-key-123',
      },
    );
    expect(badKey.code).toBe(1);
    expect(existsSync(dir)).toBe(false);
    // Nor do the commands that only read: the state database opens after the API's answer.
    for (const args of [
      ['hooks', 'list'],
      ['hooks', 'get', '1'],
      ['hooks', 'searches'],
      ['schemas', 'fetch'],
    ]) {
      const refused = await cw(args, { ...at(sim), CW_API_KEY: 'not-a-key-123' });
      expect(refused.code, args.join(' ')).toBe(1);
      expect(refused.stderr, args.join(' ')).toMatch(/401/);
      expect(existsSync(dir), args.join(' ')).toBe(false);
    }

    const first = await create(sim);
    expect(first.code, first.stderr).toBe(0);
    const hook = JSON.parse(first.stdout) as { hook_id: string };
    const status = await cw(['status'], at(sim));
    expect(status.stdout).toContain(`source: ${sim.url} (workspaces `);

    const refused = await create(other);
    expect(refused.code).toBe(2);
    expect(refused.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(
        new RegExp(
          `^campaign-warehouse: --data-dir ${dir} holds the figures of ${sim.url} \\(workspaces .+\\), not of this key's account ${other.url} \\(workspaces .+\\): no hook was created \\(the sink would load its documents into this warehouse\\); .*--force-source`,
        ),
      ),
    ]);
    expectNoSecrets(refused);
    const otherHooks = await cw(['hooks', 'list', '--json'], {
      CW_BASE_URL: other.url,
      CW_DATA_DIR: tempDir('cw-hooks-other-'),
    });
    expect(JSON.parse(otherHooks.stdout)).toEqual([]);

    const notDeleted = await cw(['hooks', 'delete', hook.hook_id], at(other));
    expect(notDeleted.code).toBe(2);
    expect(notDeleted.stderr).toMatch(
      /no hook was deleted \(this data directory's hooks are that account's\)/,
    );
    const listed = JSON.parse((await cw(['hooks', 'list', '--json'], at(sim))).stdout) as {
      hook_id: string;
      status: string;
    }[];
    expect(listed).toEqual([expect.objectContaining({ hook_id: hook.hook_id, remote: 'present' })]);

    const forced = await create(other, '--force-source');
    expect(forced.code, forced.stderr).toBe(0);
    expect(forced.stderr).toContain(
      `--force-source: this data directory's source is now ${other.url} (workspaces `,
    );
    expect((await cw(['status'], at(sim))).stdout).toContain(`source: ${other.url} (workspaces `);
    // Now the first account's hook is the other one's to refuse, unless forced.
    expect((await cw(['hooks', 'delete', hook.hook_id], at(sim))).code).toBe(2);
    const deleted = await cw(['hooks', 'delete', hook.hook_id, '--force-source'], at(sim));
    expect(deleted).toMatchObject({ code: 0, stdout: `hook ${hook.hook_id} deleted\n` });
  }, 120_000);
});

describe('schemas fetch', () => {
  it('stores the three streaming JSON Schemas as valid JSON', async () => {
    const out = await cw(['schemas', 'fetch']);
    expect(out.code).toBe(0);
    for (const type of ['social', 'editorial', 'broadcast']) {
      const file = join(dataDir, 'schemas', `${type}_streaming.json`);
      expect(out.stdout).toContain(file);
      const schema = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
      expect(typeof schema).toBe('object');
      expect(schema).toHaveProperty('properties');
    }
  }, 60_000);
});
