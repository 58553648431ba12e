/**
 * `serve` as it runs in production (the built CLI in a child process) against the simulator
 * on loopback: at start it catches up the latest completed refresh, but starts nothing inside
 * the refresh window (18:00-21:00 UTC); the sink answers /healthz and shows the sync in
 * /metrics. A signal ends it cleanly with exit code 0 in every state: starting, idle, syncing,
 * publishing, after a failed start sync; each state is reached through what serve logs or
 * records, or a lock the test holds, never a delay.
 * The serve process and its sync see the hour each test needs (helpers/shift-clock.mjs), so
 * every case runs whatever the time of day.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { latestCompletedRefresh } from '../../src/extract/snapshot-date.js';
import { type RunningSimulator, startSimulator } from '../../src/simulator/start-simulator.js';
import { Database } from '../../src/state/sqlite-database.js';
import { STATE_DB_FILE } from '../../src/state/state-db.js';
import { publishLockPath } from '../../src/warehouse/duckdb/warehouse-paths.js';
import { ensureBuiltCli } from '../helpers/built-cli.js';
import { firstReleaseDb } from '../helpers/first-release-db.js';
import { tempDir } from '../helpers/temp-dir.js';

let cli = '';
let sim: RunningSimulator | undefined;
let child: ChildProcess | undefined;

beforeAll(() => {
  cli = ensureBuiltCli();
}, 120_000);
afterEach(async () => {
  if (child && child.exitCode === null) child.kill('SIGKILL');
  await sim?.close();
  sim = child = undefined;
});

const SHIFT_CLOCK = fileURLToPath(new URL('../helpers/shift-clock.mjs', import.meta.url));

/** A clock at `hhmm` UTC today: the time serve (and the simulator) will see, and the shift to it. */
function clockAt(hhmm: string): { at: Date; shiftMs: number } {
  const at = new Date(`${new Date().toISOString().slice(0, 10)}T${hhmm}:00Z`);
  return { at, shiftMs: at.getTime() - Date.now() };
}

/** Spawns serve with its clock shifted; `waitFor` resolves once its stderr has a line with `text`. */
function spawnServe(
  dataDir: string,
  simUrl: string,
  shiftMs: number,
  env: Record<string, string> = {},
): { proc: ChildProcess; log: () => string; waitFor: (text: string) => Promise<string> } {
  const proc = spawn(
    process.execPath,
    [cli, 'serve', '--host', '127.0.0.1', '--port', '0', '--base-url', simUrl, '--data-dir', dataDir],
    {
      env: {
        ...process.env,
        CW_API_KEY: 'sim-key',
        CW_LOG_LEVEL: 'info',
        NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import=${SHIFT_CLOCK}`.trim(),
        CW_TEST_CLOCK_SHIFT_MS: String(shiftMs),
        ...env,
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  child = proc;
  let buffered = '';
  const waiting: { text: string; resolve: (line: string) => void }[] = [];
  const settle = () => {
    for (const w of [...waiting]) {
      const line = buffered.split('\n').find((l) => l.includes(w.text));
      if (line !== undefined) {
        waiting.splice(waiting.indexOf(w), 1);
        w.resolve(line);
      }
    }
  };
  proc.stderr?.on('data', (chunk: Buffer) => {
    buffered += chunk.toString();
    settle();
  });
  const waitFor = (text: string) =>
    new Promise<string>((resolve, reject) => {
      proc.once('exit', (code) =>
        reject(new Error(`serve exited (${code}) before "${text}": ${buffered.slice(-500)}`)),
      );
      waiting.push({ text, resolve });
      settle();
    });
  return { proc, log: () => buffered, waitFor };
}

/** Starts serve with its clock shifted; resolves with the sink URL from its "serving" log line. */
async function serve(
  dataDir: string,
  simUrl: string,
  shiftMs: number,
  env: Record<string, string> = {},
): Promise<{ proc: ChildProcess; sinkUrl: string; log: () => string }> {
  const { proc, log, waitFor } = spawnServe(dataDir, simUrl, shiftMs, env);
  const line = await waitFor('"msg":"serving"');
  return { proc, sinkUrl: (JSON.parse(line) as { sink: string }).sink, log };
}

/** A small API: a sync of it takes a few requests. */
const TINY = {
  workspaces: 1,
  tagsPerWorkspace: 2,
  campaigns: 2,
  postsPerCampaign: 5,
  influencersPerCampaign: 3,
};

/** Campaign units the running sync has checkpointed (all of them: only its publish is left). */
function campaignUnitsDone(dataDir: string): number {
  const db = new Database(join(dataDir, STATE_DB_FILE), { readonly: true, fileMustExist: true });
  try {
    return db
      .prepare("select count(*) from checkpoints where unit like 'campaign:%'")
      .pluck()
      .get() as number;
  } catch {
    return 0;
  } finally {
    db.close();
  }
}

function runStatuses(dataDir: string): string[] {
  const db = new Database(join(dataDir, 'state.sqlite'), { readonly: true, fileMustExist: true });
  try {
    return (db.prepare('select status from runs').all() as { status: string }[]).map((r) => r.status);
  } catch {
    return [];
  } finally {
    db.close();
  }
}

const exitOf = (proc: ChildProcess) =>
  new Promise<number | null>((resolve) => {
    if (proc.exitCode !== null) resolve(proc.exitCode);
    else proc.once('exit', (code) => resolve(code));
  });

describe('serve', () => {
  it('catches up at start, reports the sync in /metrics, and exits 0 on SIGTERM', async () => {
    const clock = clockAt('22:00');
    sim = await startSimulator({ hooks: { deliveriesPerSecond: 0 }, startTime: clock.at });
    const dataDir = tempDir('cw-serve-');
    const { proc, sinkUrl } = await serve(dataDir, sim.url, clock.shiftMs);
    expect((await fetch(`${sinkUrl}/healthz`)).status).toBe(200);
    const deadline = Date.now() + 60_000;
    while (!runStatuses(dataDir).includes('succeeded') && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(runStatuses(dataDir)).toEqual(['succeeded']);
    const db = new Database(join(dataDir, 'state.sqlite'), { readonly: true });
    const row = db.prepare('select snapshot_date, trigger from runs').get();
    db.close();
    expect(row).toEqual({ snapshot_date: latestCompletedRefresh(clock.at), trigger: 'catch-up' });
    const metrics = await (await fetch(`${sinkUrl}/metrics`)).text();
    const last = /^cw_sync_last_success_timestamp_seconds(?:\{[^}]*\})? (\S+)$/m.exec(metrics);
    expect(Number(last?.[1])).toBeGreaterThan(0);
    proc.kill('SIGTERM');
    expect(await exitOf(proc)).toBe(0);
  }, 90_000);

  it('starts no sync inside the refresh window, and still serves the sink', async () => {
    const clock = clockAt('19:00');
    sim = await startSimulator({ hooks: { deliveriesPerSecond: 0 }, startTime: clock.at });
    const dataDir = tempDir('cw-serve-');
    const { proc, sinkUrl, log } = await serve(dataDir, sim.url, clock.shiftMs);
    const health = (await (await fetch(`${sinkUrl}/healthz`)).json()) as { status: string };
    expect(health.status).toBe('ok');
    while (!log().includes('"msg":"start sync skipped"')) {
      expect(proc.exitCode).toBeNull();
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(log()).toMatch(/"reason":"the API is refreshing[^"]*","msg":"start sync skipped"/);
    expect(log()).not.toContain('starting sync');
    expect(runStatuses(dataDir)).toEqual([]);
    proc.kill('SIGINT');
    expect(await exitOf(proc)).toBe(0);
    // Its last line says it stopped (as sink's does); no line carries pid twice.
    expect(log().trim().split('\n').at(-1)).toContain('"msg":"stopped"');
    for (const line of log().split('\n')) expect(line.match(/"pid":/g)?.length ?? 0, line).toBeLessThan(2);
  }, 90_000);

  it('SIGTERM in the middle of a sync stops it at a safe point and exits 0', async () => {
    const clock = clockAt('22:00');
    sim = await startSimulator({
      hooks: { deliveriesPerSecond: 0 },
      faults: { slowRate: 1, slowMs: 200 },
      startTime: clock.at,
    });
    const dataDir = tempDir('cw-serve-');
    const { proc } = await serve(dataDir, sim.url, clock.shiftMs);
    while (!runStatuses(dataDir).includes('running')) {
      expect(proc.exitCode).toBeNull();
      await new Promise((r) => setTimeout(r, 100));
    }
    proc.kill('SIGTERM');
    expect(await exitOf(proc)).toBe(0);
    expect(runStatuses(dataDir)).not.toContain('succeeded');
  }, 90_000);

  it('SIGTERM while starting (its state file upgrading, behind another writer): stops before serving, exit 0', async () => {
    const clock = clockAt('22:00');
    sim = await startSimulator({ hooks: { deliveriesPerSecond: 0 }, startTime: clock.at, size: TINY });
    const dataDir = tempDir('cw-serve-');
    // A first-release state file whose write lock the test holds: serve's start waits in its
    // upgrade until the lock is released, after the signal was sent.
    const holder = firstReleaseDb(join(dataDir, STATE_DB_FILE), 'state');
    holder.exec('begin immediate');
    const { proc, log, waitFor } = spawnServe(dataDir, sim.url, clock.shiftMs);
    try {
      await waitFor('"msg":"starting"');
      proc.kill('SIGTERM');
    } finally {
      holder.exec('rollback');
      holder.close();
    }
    expect(await exitOf(proc)).toBe(0);
    expect(log()).toContain('"msg":"shutting down"');
    expect(log()).not.toContain('"msg":"serving"');
    expect(runStatuses(dataDir)).toEqual([]);
  }, 90_000);

  it('SIGTERM while the sync publishes: the publish completes (a safe point), exit 0', async () => {
    const clock = clockAt('22:00');
    sim = await startSimulator({ hooks: { deliveriesPerSecond: 0 }, startTime: clock.at, size: TINY });
    const dataDir = tempDir('cw-serve-');
    mkdirSync(dataDir, { recursive: true });
    // The test holds the publish lock: once every unit is checkpointed, the sync waits in its publish.
    const lock = new Database(publishLockPath(dataDir), { timeout: 0 });
    lock.exec('begin exclusive');
    let proc: ChildProcess | undefined;
    try {
      ({ proc } = await serve(dataDir, sim.url, clock.shiftMs));
      while (campaignUnitsDone(dataDir) < TINY.campaigns || !runStatuses(dataDir).includes('running')) {
        expect(proc.exitCode).toBeNull();
        await new Promise((r) => setTimeout(r, 50));
      }
      proc.kill('SIGTERM');
    } finally {
      lock.exec('rollback');
      lock.close();
    }
    expect(await exitOf(proc)).toBe(0);
    expect(runStatuses(dataDir)).toEqual(['succeeded']);
  }, 90_000);

  it('SIGTERM after its start sync failed (the API refuses the key): exit 0', async () => {
    const clock = clockAt('22:00');
    sim = await startSimulator({ hooks: { deliveriesPerSecond: 0 }, startTime: clock.at, size: TINY });
    const dataDir = tempDir('cw-serve-');
    const { proc, waitFor } = spawnServe(dataDir, sim.url, clock.shiftMs, { CW_API_KEY: 'not-a-valid-key' });
    await waitFor('"msg":"sync failed; will retry"');
    proc.kill('SIGTERM');
    expect(await exitOf(proc)).toBe(0);
    expect(runStatuses(dataDir)).toEqual(['failed']);
  }, 90_000);
});
