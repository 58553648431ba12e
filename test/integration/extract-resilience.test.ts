import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSimulator, SimulatorInput } from '../../src/simulator/start-simulator.js';
import { Database } from '../../src/state/sqlite-database.js';
import { ensureBuiltCli } from '../helpers/built-cli.js';
import {
  checksums,
  rows,
  SNAPSHOT,
  startSim,
  sync,
  syncConfig,
  tempDataDir,
} from '../helpers/sync-harness.js';

const TINY = {
  workspaces: 1,
  tagsPerWorkspace: 3,
  campaigns: 4,
  postsPerCampaign: 25,
  influencersPerCampaign: 6,
};
const sims: RunningSimulator[] = [];
async function sim(options: SimulatorInput = {}): Promise<RunningSimulator> {
  const started = await startSim({ size: TINY, ...options });
  sims.push(started);
  return started;
}
afterEach(async () => {
  await Promise.all(sims.splice(0).map((s) => s.close()));
});

/** The warehouse of a fault-free run of the same data: what every resilient run must equal. */
async function cleanChecksums(): Promise<Record<string, string>> {
  const clean = await sim();
  const dataDir = tempDataDir();
  await sync(clean, syncConfig(clean, dataDir));
  return checksums(dataDir);
}

describe('throttle and retry against a faulty simulator', () => {
  it('ends in a warehouse identical to a fault-free run under every fault', async () => {
    const expected = await cleanChecksums();
    const faulty = await sim({
      faults: {
        error500Rate: 0.05,
        error503Rate: 0.05,
        resetRate: 0.04,
        truncateRate: 0.04,
        invalidJsonRate: 0.04,
        slowRate: 0.03,
        slowMs: 200,
        overloadRate: 0.04,
      },
      retryAfterFormat: 'delta',
    });
    const dataDir = tempDataDir();
    const summary = await sync(faulty, syncConfig(faulty, dataDir, { maxRetries: 10 }));
    const faults = faulty.stats().faults as Record<string, number>;
    expect(Object.keys(faults).length).toBeGreaterThanOrEqual(5);
    expect(summary.retries).toBeGreaterThan(0);
    expect(await checksums(dataDir)).toEqual(expected);
  });

  it.each(['iso', 'http-date', 'epoch', 'delta'] as const)(
    'honours Retry-After as %s and loses nothing',
    async (format) => {
      // Overload mode: a share of requests gets 429 whatever the rate, with Retry-After in
      // the format under test; the client must pause as told and lose nothing.
      const limited = await sim({
        size: { ...TINY, campaigns: 2, postsPerCampaign: 8 },
        faults: { overloadRate: 0.15 },
        retryAfterFormat: format,
      });
      const dataDir = tempDataDir();
      const summary = await sync(limited, syncConfig(limited, dataDir, { rps: 1000, concurrency: 4 }));
      expect(summary.throttled).toBeGreaterThan(0);
      expect(summary.throttled).toBe((limited.stats() as { throttled: number }).throttled);
      const [runs] = await rows(dataDir, 'select throttled from sync_runs');
      expect(runs!.throttled).toBe(summary.throttled);
      expect((await checksums(dataDir)).post_metrics).toMatch(/^[1-9]\d*:/);
    },
  );

  it('adopts RateLimit-Limit as its ceiling: no 429s from a rate-limited server', async () => {
    const limited = await sim({
      size: { ...TINY, campaigns: 2, postsPerCampaign: 8 },
      rateLimit: { rps: 20, burst: 1 },
    });
    const summary = await sync(limited, syncConfig(limited, tempDataDir(), { rps: 1000, concurrency: 4 }));
    expect(summary.requests).toBeGreaterThan(5);
    expect(summary.throttled).toBeLessThanOrEqual(1);
  });
});

describe('failures', () => {
  it('401: one line naming the cause, endpoint and request id, never the key; nothing is created before the key is accepted', async () => {
    const s = await sim();
    const dataDir = tempDataDir();
    const key = 'not-a-valid-key-0123456789';
    const error = await sync(s, syncConfig(s, dataDir, { apiKey: key })).catch((e: Error) => e);
    expect(error).toBeInstanceOf(Error);
    const message = (error as Error).message;
    expect(message).toMatch(
      /^401 Unauthorized on GET \/v3\/\S+ \(X-Request-Id [0-9a-f-]{36}\): the API key is invalid or expired/,
    );
    expect(message).not.toContain(key);
    expect(readdirSync(dataDir)).toEqual([]);
  });

  it('403: not entitled to the influencer endpoints', async () => {
    const s = await sim();
    const error = await sync(s, syncConfig(s, tempDataDir(), { apiKey: 'sim-streaming-key' })).catch(
      (e: Error) => e,
    );
    expect((error as Error).message).toMatch(
      /^403 Forbidden on GET \/v3\/\S+ \(X-Request-Id .+\): this API key is not entitled to the influencer endpoints$/,
    );
  });

  it('a failed run leaves the published data untouched', async () => {
    const s = await sim();
    const dataDir = tempDataDir();
    await sync(s, syncConfig(s, dataDir));
    const before = await checksums(dataDir);
    await expect(sync(s, syncConfig(s, dataDir, { apiKey: 'wrong-key-wrong-key' }))).rejects.toThrow(/401/);
    expect(await checksums(dataDir)).toEqual(before);
  });
});

describe('HTTPS', () => {
  it('syncs from the simulator in TLS mode with its CA, and refuses without it', async () => {
    const s = await sim({ tls: true });
    expect(s.url).toMatch(/^https:/);
    const dataDir = tempDataDir();
    const summary = await sync(s, syncConfig(s, dataDir));
    expect(summary.rowsWritten).toBeGreaterThan(0);
    const untrusted = { ...syncConfig(s, tempDataDir(), { maxRetries: 0 }) };
    delete (untrusted as { ca?: string }).ca;
    await expect(sync(s, untrusted)).rejects.toThrow(/certificate|self.signed/i);
  });
});

describe('kill -9 mid-run, then resume', () => {
  let cli = '';
  beforeAll(() => {
    cli = ensureBuiltCli();
  }, 120_000);

  it('continues where it stopped and ends identical to a clean run', async () => {
    const expected = await cleanChecksums();
    // Every request is slow, one at a time: the kill lands mid-run.
    const slow = await sim({ faults: { slowRate: 1, slowMs: 150 } });
    const dataDir = tempDataDir();
    const child: ChildProcess = spawn(
      process.execPath,
      [
        cli,
        'sync',
        '--base-url',
        slow.url,
        '--data-dir',
        dataDir,
        '--snapshot-date',
        SNAPSHOT,
        '--force',
        '--concurrency',
        '1',
        '--rps',
        '1000',
      ],
      { env: { ...process.env, CW_API_KEY: 'sim-key', CW_LOG_LEVEL: 'warn' }, stdio: 'ignore' },
    );
    const exited = new Promise((resolve) => child.once('exit', resolve));
    const stateFile = join(dataDir, 'state.sqlite');
    const campaignCheckpoints = () => {
      if (!existsSync(stateFile)) return 0;
      const db = new Database(stateFile, { readonly: true, fileMustExist: true });
      try {
        return (
          db.prepare("select count(*) as n from checkpoints where unit like 'campaign:%'").get() as {
            n: number;
          }
        ).n;
      } catch {
        return 0;
      } finally {
        db.close();
      }
    };
    while (campaignCheckpoints() < 2) {
      if (child.exitCode !== null)
        throw new Error(`sync ended before it could be killed (${child.exitCode})`);
      await new Promise((r) => setTimeout(r, 50));
    }
    child.kill('SIGKILL');
    await exited;
    expect(existsSync(join(dataDir, 'warehouse.duckdb'))).toBe(false);

    const resumed = await sync(slow, syncConfig(slow, dataDir, { concurrency: 2 }));
    expect(resumed.resumed).toBe(true);
    expect(resumed.unitsSkipped).toBeGreaterThanOrEqual(2);
    expect(await checksums(dataDir)).toEqual(expected);
    const [runs] = await rows(dataDir, "select count(*) as n from sync_runs where status = 'succeeded'");
    expect(runs!.n).toBe(1);
  });
});
