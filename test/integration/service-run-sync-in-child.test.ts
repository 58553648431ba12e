/**
 * serve's syncs run as child processes of the built CLI (run-sync-in-child.ts): the run is recorded
 * with serve's trigger, a failure rejects with the child's one-line error (never the key),
 * aborting stops the child, and so does serve dying without a word (SIGKILL).
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { pathToFileURL } from 'node:url';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSyncInChild } from '../../src/service/run-sync-in-child.js';
import type { RunningSimulator } from '../../src/simulator/start-simulator.js';
import { startSimulator } from '../../src/simulator/start-simulator.js';
import { Database } from '../../src/state/sqlite-database.js';
import { queryReadOnly } from '../../src/warehouse/read/query-read-only.js';
import { ensureBuiltCli } from '../helpers/built-cli.js';
import { SMALL, startSim, tempDataDir } from '../helpers/sync-harness.js';

const logger = pino({ level: 'silent' });
let sim: RunningSimulator;
let root: string;
const savedKey = process.env.CW_API_KEY;

beforeAll(async () => {
  ensureBuiltCli();
  sim = await startSim({ size: { ...SMALL, campaigns: 2 } });
  root = tempDataDir();
}, 120_000);
afterAll(async () => {
  if (savedKey === undefined) delete process.env.CW_API_KEY;
  else process.env.CW_API_KEY = savedKey;
  await sim.close();
  rmSync(root, { recursive: true, force: true });
});

function runs(
  dataDir: string,
): { status: string; trigger: string; snapshot_date: string; failures: number }[] {
  if (!existsSync(join(dataDir, 'state.sqlite'))) return [];
  const db = new Database(join(dataDir, 'state.sqlite'), { readonly: true });
  try {
    const ready = db.prepare("select 1 from sqlite_master where name = 'runs'").get();
    if (!ready) return []; // migrations not applied yet
    return db.prepare('select status, trigger, snapshot_date, failures from runs').all() as {
      status: string;
      trigger: string;
      snapshot_date: string;
      failures: number;
    }[];
  } finally {
    db.close();
  }
}

describe('runSyncInChild', () => {
  it('runs the sync in a child process and records the trigger', async () => {
    process.env.CW_API_KEY = 'sim-key';
    const dataDir = join(root, 'ok');
    await runSyncInChild({
      force: true,
      snapshotDate: '2026-11-20',
      trigger: 'catch-up',
      dataDir,
      baseUrl: sim.url,
      signal: new AbortController().signal,
      logger,
    });
    expect(runs(dataDir)).toEqual([
      { status: 'succeeded', trigger: 'catch-up', snapshot_date: '2026-11-20', failures: 0 },
    ]);
    const { rows } = await queryReadOnly(dataDir, 'select count(*) from campaign_metrics');
    expect(rows[0]?.[0]).toBe(2);
  });

  it('rejects with the child one-line error, without the key', async () => {
    process.env.CW_API_KEY = 'wrong-key-7d3e1a';
    const failure = runSyncInChild({
      force: true,
      snapshotDate: '2026-11-20',
      trigger: 'retry',
      dataDir: join(root, 'bad-key'),
      baseUrl: sim.url,
      signal: new AbortController().signal,
      logger,
    });
    await expect(failure).rejects.toThrow(/^campaign-warehouse: .*401/);
    await failure.catch((error: Error) => expect(error.message).not.toContain('wrong-key-7d3e1a'));
    expect(runs(join(root, 'bad-key'))).toMatchObject([{ status: 'failed', trigger: 'retry', failures: 1 }]);
  });

  it('a run whose remote commit failed resolves with its summary: serve does not sync again for the remote', async () => {
    process.env.CW_API_KEY = 'sim-key';
    const dataDir = join(root, 'remote-down');
    const warnings: { error?: string }[] = [];
    const watching = { ...logger, warn: (fields: { error?: string }) => warnings.push(fields), info() {} };
    // The object store is a closed port on loopback: every remote commit fails, the local publish stands.
    const saved = { ...process.env };
    Object.assign(process.env, {
      AWS_ENDPOINT_URL_S3: 'http://127.0.0.1:9',
      AWS_ACCESS_KEY_ID: 'test-key-id',
      AWS_SECRET_ACCESS_KEY: 'test-secret-never-shown',
      AWS_REGION: 'us-east-1',
      AWS_MAX_ATTEMPTS: '1',
    });
    try {
      const summary = await runSyncInChild({
        force: true,
        snapshotDate: '2026-11-20',
        trigger: 'scheduled',
        dataDir,
        baseUrl: sim.url,
        remote: 's3://lake-bucket/warehouse',
        signal: new AbortController().signal,
        logger: watching as unknown as typeof logger,
      });
      expect(summary).toMatchObject({ snapshotDate: '2026-11-20' });
    } finally {
      for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];
      Object.assign(process.env, saved);
    }
    expect(runs(dataDir)).toMatchObject([{ status: 'succeeded', trigger: 'scheduled', failures: 0 }]);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.error).toMatch(/^campaign-warehouse: .*lake-bucket.*127\.0\.0\.1/);
    expect(warnings[0]?.error).not.toContain('test-secret-never-shown');
  });

  it('aborting stops the running child at a safe point: its run is not marked succeeded', async () => {
    process.env.CW_API_KEY = 'sim-key';
    const abort = new AbortController();
    const dataDir = join(root, 'aborted');
    const running = runSyncInChild({
      force: true,
      snapshotDate: '2026-11-21',
      trigger: 'scheduled',
      dataDir,
      baseUrl: sim.url,
      signal: abort.signal,
      logger,
    });
    // Once the child has recorded its run (it is syncing), ask it to stop.
    for (let i = 0; i < 200 && runs(dataDir).length === 0; i++) await sleep(25);
    expect(runs(dataDir)).toMatchObject([{ status: 'running', trigger: 'scheduled' }]);
    abort.abort();
    await expect(running).rejects.toThrow();
    expect(runs(dataDir).filter((r) => r.status === 'succeeded')).toEqual([]);
  });

  it('a sync whose serve was killed with SIGKILL stops instead of running on, orphaned', async () => {
    // Every response takes 300 ms: the sync is still running when its parent dies.
    const slow = await startSimulator({
      seed: 11,
      size: { ...SMALL, campaigns: 4 },
      faults: { slowRate: 1, slowMs: 300 },
    });
    const dataDir = join(root, 'orphan');
    // A stand-in for serve: runs the sync through the built runSyncInChild, then is killed.
    const module = pathToFileURL(join(process.cwd(), 'dist', 'src', 'service', 'run-sync-in-child.js')).href;
    const serve = spawn(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `const { runSyncInChild } = await import(${JSON.stringify(module)});
         const logger = { info() {} };
         await runSyncInChild({ force: true, snapshotDate: '2026-11-22', trigger: 'scheduled', dataDir: ${JSON.stringify(dataDir)},
           baseUrl: ${JSON.stringify(slow.url)}, signal: new AbortController().signal, logger });`,
      ],
      { stdio: 'ignore', env: { ...process.env, CW_API_KEY: 'sim-key', CW_LOG_LEVEL: 'silent' } },
    );
    try {
      for (let i = 0; i < 400 && runs(dataDir).length === 0; i++) await sleep(25);
      expect(runs(dataDir)).toMatchObject([{ status: 'running' }]);
      const sync = childrenOf(serve.pid as number);
      expect(sync).toHaveLength(1);
      // Started with Node 20's young generation, whatever the Node (cliNodeFlags).
      expect(readFileSync(`/proc/${sync[0]}/cmdline`, 'utf8').split('\0')).toContain(
        '--max-semi-space-size=16',
      );
      serve.kill('SIGKILL');
      // The sync notices its channel closed and stops at the next safe point (one response away).
      for (let i = 0; i < 400 && alive(sync[0] as number); i++) await sleep(25);
      expect(alive(sync[0] as number)).toBe(false);
      expect(runs(dataDir).filter((r) => r.status === 'succeeded')).toEqual([]);
    } finally {
      serve.kill('SIGKILL');
      await slow.close();
    }
  });
});

/** Pids whose parent is `pid` (Linux /proc). */
function childrenOf(pid: number): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((name) => {
      try {
        return parentOf(readFileSync(`/proc/${name}/stat`, 'utf8')) === pid;
      } catch {
        return false; // exited meanwhile
      }
    })
    .map(Number);
}

/** The ppid field of /proc/<pid>/stat (after the parenthesised command name). */
function parentOf(stat: string): number {
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
}

/** Running (a zombie nobody reaped yet counts as gone). */
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}
