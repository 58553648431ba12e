/**
 * Bad input at start, per command, against the built CLI in child processes: each exits
 * with its code (2 for a usage or configuration error, 1 for a runtime failure such as a
 * busy port) well within a bound (nothing is left running: no listener, thread or timer keeps
 * it alive), with exactly one line on stderr that names the bad value, and no stack trace.
 * Every other setting of a case is valid, so the line is about the value under test.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import pLimit from 'p-limit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuiltCli } from '../helpers/built-cli.js';
import { tempDir } from '../helpers/temp-dir.js';

/** Far above a failing start (~0.2 s), far below a hang; a killed child fails the case. */
const EXIT_BOUND_MS = 15_000;
/** Children run at once per command. */
const CASES_AT_ONCE = 4;

interface Case {
  readonly args: string[];
  readonly env?: Record<string, string>;
  /** What the one line must contain: the bad value (or, for a secret, the variable's name). */
  readonly names: string;
  /** The exit code: 2 (a usage or configuration error) unless said. */
  readonly code?: number;
}

let cli = '';
const dir = tempDir('cw-bad-input-');
const aFile = join(dir, 'a-file');
const dataDir = join(dir, 'data');
const notSqlite = join(dir, 'not-sqlite');
const badCron = join(dir, 'bad-cron.json');
const badZone = join(dir, 'bad-zone.json');
let busy: Server;
let busyPort = 0;
// Valid API settings, never contacted: every case fails before any request.
const API = ['--base-url', 'http://127.0.0.1:9'];
const KEY = { CW_API_KEY: 'k' };

function table(): Record<string, Case[]> {
  return {
    sync: [
      { args: ['sync', ...API, '--snapshot-date', '2026-13-45'], env: KEY, names: '2026-13-45' },
      { args: ['sync', ...API, '--snapshot-date', '2026-02-30'], env: KEY, names: '2026-02-30' },
      { args: ['sync', ...API, '--rps', 'fast'], env: KEY, names: 'fast' },
      { args: ['sync', ...API, '--concurrency', '0'], env: KEY, names: '--concurrency' },
      { args: ['sync', ...API, '--rps', '0'], env: KEY, names: '--rps' },
      { args: ['sync', ...API, '--no-such-flag'], env: KEY, names: '--no-such-flag' },
      { args: ['sync', ...API, '--data-dir'], env: KEY, names: '--data-dir' },
      { args: ['sync', ...API, '--data-dir', aFile], env: KEY, names: aFile },
      // A folder access() calls writable that refuses a new folder (a recursive mkdir loops there).
      { args: ['sync', ...API, '--data-dir', '/proc/nc'], env: KEY, names: '/proc/nc' },
      { args: ['sync', ...API, '--config', badZone], env: KEY, names: 'Mars/Olympus' },
      { args: ['sync', ...API], env: { ...KEY, CW_LOG_LEVEL: 'loud' }, names: 'loud' },
      { args: ['sync', '--base-url', 'ftp://api.example.com'], env: KEY, names: '--base-url' },
      { args: ['sync', '--base-url', 'https://api.example.com/v3'], env: KEY, names: 'without /v3' },
      {
        args: ['sync'],
        env: { ...KEY, CW_BASE_URL: '127.0.0.1:8080' },
        names: 'CW_BASE_URL: "127.0.0.1:8080" has no scheme',
      },
      { args: ['sync', ...API], env: { ...KEY, CW_CA_FILE: join(dir, 'no-ca.pem') }, names: 'no-ca.pem' },
      // --force: between 18:00 and 21:00 UTC the refresh window would be named first.
      { args: ['sync', ...API, '--force', '--data-dir', notSqlite], env: KEY, names: 'state.sqlite' },
      { args: ['sync', ...API], env: { CW_API_KEY: 'key-from-a-file\n' }, names: 'CW_API_KEY' },
    ],
    status: [
      { args: ['status', '--data-dir', aFile], names: aFile },
      { args: ['status', '--data-dir', notSqlite], names: 'state.sqlite' },
      { args: ['status', '--config', badZone], names: 'Mars/Olympus' },
      { args: ['status'], env: { CW_CONFIG: join(dir, 'no-such.json') }, names: 'no-such.json' },
    ],
    query: [
      { args: ['query', 'select 1', '--format', 'xml'], names: 'xml' },
      { args: ['query'], names: 'sql' },
      { args: ['query', 'select 1', '--config', badZone], names: 'Mars/Olympus' },
    ],
    hooks: [
      {
        args: ['hooks', 'create', ...API, '--search-id', '0', '--target-url', 'https://s.example'],
        env: KEY,
        names: '--search-id',
      },
      {
        args: ['hooks', 'create', ...API, '--search-id', '1', '--target-url', 'ftp://s.example'],
        env: KEY,
        names: 'ftp://s.example',
      },
      {
        args: ['hooks', 'create', ...API, '--search-id', '1', '--target-url', 'http://sink.example.com'],
        env: KEY,
        names: 'http://sink.example.com must use https://',
      },
      {
        args: ['hooks', 'create', ...API, '--search-id', '1', '--target-url', 'https://s.example'],
        env: { ...KEY, CW_HOOK_SECRET: 'short' },
        names: 'CW_HOOK_SECRET',
      },
      { args: ['hooks', 'get', '', ...API], env: KEY, names: 'hook-id' },
      { args: ['hooks', 'delete', ' ', ...API], env: KEY, names: 'hook-id' },
      { args: ['hooks', 'list', ...API, '--data-dir', aFile], env: KEY, names: aFile },
    ],
    schemas: [{ args: ['schemas', 'fetch', ...API, '--data-dir', aFile], env: KEY, names: aFile }],
    sink: [
      { args: ['sink', '--data-dir', dataDir, '--port', '70000'], names: '70000' },
      { args: ['sink', '--data-dir', dataDir, '--port', ''], names: '--port' },
      { args: ['sink', '--data-dir', dataDir, '--publish-interval', '1e12'], names: '1e12' },
      { args: ['sink', '--data-dir', dataDir, '--body-limit', '0'], names: '--body-limit' },
      {
        args: ['sink', '--data-dir', dataDir, '--host', '10.255.255.1', '--port', '0'],
        names: '10.255.255.1',
      },
      { args: ['sink', '--data-dir', dataDir, '--port', String(busyPort)], names: String(busyPort), code: 1 },
      { args: ['sink', '--data-dir', aFile, '--port', '0'], names: aFile },
      { args: ['sink', '--data-dir', '/proc/nc/data', '--port', '0'], names: '/proc/nc/data' },
      { args: ['sink', '--port', '0'], env: { CW_DATA_DIR: aFile }, names: aFile },
      { args: ['sink', '--port', '0', '--config', badZone], names: 'Mars/Olympus' },
    ],
    serve: [
      {
        args: ['serve', ...API, '--data-dir', dataDir, '--cron', 'not a cron'],
        env: KEY,
        names: 'not a cron',
      },
      {
        args: ['serve', ...API, '--data-dir', dataDir, '--timezone', 'Mars/Olympus'],
        env: KEY,
        names: 'Mars/Olympus',
      },
      { args: ['serve', ...API, '--data-dir', dataDir, '--config', badCron], env: KEY, names: '61 * * * *' },
      {
        args: ['serve', ...API, '--data-dir', dataDir, '--port', String(busyPort)],
        env: KEY,
        names: String(busyPort),
        code: 1,
      },
      { args: ['serve', ...API, '--data-dir', dataDir, '--publish-interval', '-1'], env: KEY, names: '-1' },
      { args: ['serve', ...API, '--data-dir', dataDir, '--port', '99999'], env: KEY, names: '99999' },
      // Blank is no port (Number('') would be 0: any free port), as for sink.
      { args: ['serve', ...API, '--data-dir', dataDir, '--port', ''], env: KEY, names: '--port' },
      { args: ['serve', ...API, '--data-dir', dataDir, '--prot', '0'], env: KEY, names: '--prot' },
      { args: ['serve', ...API, '--data-dir', aFile, '--port', '0'], env: KEY, names: aFile },
      {
        args: ['serve', ...API, '--data-dir', dataDir, '--port', '0'],
        env: { ...KEY, CW_LOG_LEVEL: 'loud' },
        names: 'loud',
      },
      {
        args: ['serve', '--data-dir', dataDir, '--port', '0'],
        env: { CW_BASE_URL: 'http://127.0.0.1:9' },
        names: 'CW_API_KEY',
      },
    ],
    simulate: [
      { args: ['simulate', '--port', '-1'], names: '--port' },
      { args: ['simulate', '--start-time', 'yesterday'], names: 'yesterday' },
      { args: ['simulate', '--host', '10.255.255.1', '--port', '0'], names: '10.255.255.1' },
      { args: ['simulate', '--port', String(busyPort)], names: String(busyPort), code: 1 },
    ],
    demo: [{ args: ['demo', '--data-dir', aFile], names: aFile }],
    program: [
      { args: ['no-such-command'], names: 'no-such-command' },
      { args: ['--no-such-flag'], names: '--no-such-flag' },
    ],
  };
}

function run(c: Case): Promise<{ code: number | null; stderr: string; ms: number; killed: boolean }> {
  // Only what the case sets: a CW_* variable of the developer's shell must not leak in.
  const clean = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('CW_')));
  const started = Date.now();
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [cli, ...c.args],
      { env: { ...clean, CW_LOG_LEVEL: 'info', ...c.env }, timeout: EXIT_BOUND_MS, killSignal: 'SIGKILL' },
      (_error, _stdout, stderr) =>
        resolve({
          code: child.exitCode,
          stderr,
          ms: Date.now() - started,
          killed: child.signalCode !== null,
        }),
    );
  });
}

beforeAll(async () => {
  cli = ensureBuiltCli();
  writeFileSync(aFile, 'not a directory');
  mkdirSync(notSqlite);
  writeFileSync(join(notSqlite, 'state.sqlite'), 'not a database, just text');
  writeFileSync(badCron, JSON.stringify({ schedule: { cron: '61 * * * *' } }));
  writeFileSync(badZone, JSON.stringify({ schedule: { timezone: 'Mars/Olympus' } }));
  busy = createServer();
  await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
  busyPort = (busy.address() as { port: number }).port;
}, 120_000);
afterAll(() => {
  busy?.close();
});

describe('bad input at start: exit 2 (1 for a busy port), one line naming the value, no stack trace', () => {
  // Every command has its cases; they are built in the test, once the busy port is known.
  for (const command of Object.keys(table())) {
    it(command, async () => {
      const cases = table()[command] ?? [];
      expect(cases.length).toBeGreaterThan(0);
      // A few at a time: a dozen node start-ups at once on a loaded machine could outlast the bound.
      const limit = pLimit(CASES_AT_ONCE);
      const results = await Promise.all(cases.map((c) => limit(() => run(c))));
      for (const [i, result] of results.entries()) {
        const c = cases[i] as Case;
        const lines = result.stderr.split('\n').filter((line) => line.trim() !== '');
        const what = `${c.args.join(' ')} ${JSON.stringify(c.env ?? {})} -> ${result.stderr}`;
        expect(result.killed, `hung: ${what}`).toBe(false);
        expect(result.code, what).toBe(c.code ?? 2);
        expect(lines, what).toHaveLength(1);
        expect(lines[0], what).toMatch(/^campaign-warehouse: /);
        expect(lines[0], what).toContain(c.names);
        expect(result.stderr, what).not.toMatch(/^\s+at /m);
        expect(result.stderr, what).not.toContain('key-from-a-file'); // a key is never echoed
      }
    }, 60_000);
  }
});
