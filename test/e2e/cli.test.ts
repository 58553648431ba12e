/**
 * The built CLI as a user runs it: separate processes, real files, the simulator on loopback.
 * Covers the paths a user meets first: help, configuration errors, a sync, status, query.
 */
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSimulator } from '../../src/simulator/start-simulator.js';
import { ensureBuiltCli } from '../helpers/built-cli.js';
import { lines, loopbackSync, run } from '../helpers/run-cli.js';
import { SMALL, startSim, tempDataDir } from '../helpers/sync-harness.js';

const KEY = 'sim-key';

describe('campaign-warehouse (built CLI)', () => {
  let sim: RunningSimulator;
  let dir: string;

  beforeAll(async () => {
    ensureBuiltCli();
    sim = await startSim({ size: { ...SMALL, campaigns: 3 } });
    dir = tempDataDir();
  }, 120_000);
  afterAll(async () => {
    await sim?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('--help lists every command', async () => {
    const { code, stdout } = await run(['--help']);
    expect(code).toBe(0);
    for (const command of [
      'demo',
      'sync',
      'status',
      'query',
      'report',
      'hooks',
      'schemas',
      'sink',
      'serve',
      'simulate',
    ])
      expect(stdout).toMatch(new RegExp(`^\\s+${command}\\b`, 'm'));
  });

  it('an unknown flag is refused with usage help', async () => {
    const { code, stderr } = await run(['sync', '--bogus']);
    expect(code).not.toBe(0);
    expect(stderr).toContain("unknown option '--bogus'");
  });

  it('sync without CW_API_KEY: exit 2, one line naming the variable, nothing created', async () => {
    const dataDir = join(dir, 'no-key');
    const { code, stderr, stdout } = await run(['sync', '--base-url', sim.url, '--data-dir', dataDir]);
    expect(code).toBe(2);
    expect(lines(stderr)).toHaveLength(1);
    expect(stderr).toContain('CW_API_KEY');
    expect(stdout).toBe('');
    expect(existsSync(dataDir)).toBe(false);
  });

  it('sync refuses a plain http:// base URL that is not loopback, before touching anything', async () => {
    const dataDir = join(dir, 'http');
    const { code, stderr } = await run(
      ['sync', '--base-url', 'http://api.example.com', '--data-dir', dataDir],
      {
        CW_API_KEY: KEY,
      },
    );
    expect(code).toBe(2);
    expect(lines(stderr)).toEqual([
      'campaign-warehouse: --base-url http://api.example.com must use https:// (plain http:// is only allowed for loopback hosts)',
    ]);
    expect(existsSync(dataDir)).toBe(false);
  });

  it('sync with a key the API refuses: one line naming 401, the endpoint and the request id; no key', async () => {
    const secretKey = 'not-a-valid-key-4f1c9b';
    const { code, stderr, stdout } = await run(
      ['sync', '--base-url', sim.url, '--data-dir', join(dir, 'bad-key'), '--force', '--json'],
      { CW_API_KEY: secretKey },
    );
    expect(code).not.toBe(0);
    const last = lines(stderr).at(-1) ?? '';
    expect(last).toMatch(/401/);
    expect(last).toMatch(/\/v3\//);
    expect(last).toMatch(/request[- ]id/i);
    expect(`${stdout}${stderr}`).not.toContain(secretKey);
  });

  it('sync, then status and query read what it published', async () => {
    const dataDir = join(dir, 'ok');
    const synced = await run(loopbackSync(sim.url, dataDir, '--snapshot-date', '2026-11-20', '--json'), {
      CW_API_KEY: KEY,
    });
    expect(synced.code).toBe(0);
    const summary = JSON.parse(lines(synced.stdout).at(-1)!) as {
      snapshotDate: string;
      rowsByTable: Record<string, number>;
    };
    expect(summary.snapshotDate).toBe('2026-11-20');
    expect(summary.rowsByTable.campaign_metrics).toBe(3);
    expect(summary.rowsByTable.post_metrics).toBeGreaterThan(0);
    expect(`${synced.stdout}${synced.stderr}`).not.toContain(KEY);

    const status = await run(['status', '--data-dir', dataDir, '--json']);
    expect(status.code).toBe(0);
    expect(status.stdout).toContain('succeeded');
    expect(status.stdout).toContain('2026-11-20');

    const csv = await run([
      'query',
      '--data-dir',
      dataDir,
      '--format',
      'csv',
      'select count(*) as campaigns from campaign_metrics',
    ]);
    expect(csv.code).toBe(0);
    expect(lines(csv.stdout)).toEqual(['campaigns', '3']);

    const json = await run([
      'query',
      '--data-dir',
      dataDir,
      '--format',
      'json',
      "select snapshot_date, segment from campaign_metrics where segment = 'all' limit 1",
    ]);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual([{ snapshot_date: '2026-11-20', segment: 'all' }]);

    const write = await run(['query', '--data-dir', dataDir, 'delete from campaigns']);
    expect(write.code).not.toBe(0);
    expect(lines(write.stderr)).toHaveLength(1);
    const after = await run([
      'query',
      '--data-dir',
      dataDir,
      '--format',
      'csv',
      'select count(*) from campaigns',
    ]);
    expect(lines(after.stdout)[1]).toBe('3');
  });

  it("sync's output: the text summary on stdout unless --json; on stderr the log, and one line for a forced past date", async () => {
    const { code, stdout, stderr } = await run(
      loopbackSync(sim.url, join(dir, 'text'), '--snapshot-date', '2026-11-20'),
      { CW_API_KEY: KEY },
    );
    expect(code, stderr).toBe(0);
    expect(lines(stdout)[0]).toMatch(/^sync 2026-11-20 succeeded in /);
    expect(stdout).toMatch(/^data checks: \d+ ran, none failed$/m);
    expect(lines(stdout).filter((line) => line.startsWith('{'))).toEqual([]);
    const log = lines(stderr).map((line) => JSON.parse(line) as { level: number; msg: string });
    expect(log).toEqual([
      expect.objectContaining({
        level: 40,
        msg: expect.stringMatching(
          /^--snapshot-date 2026-11-20 --force: the figures stored are the API's current ones/,
        ),
      }),
    ]);
  });

  it('sync refuses a future snapshot date, and a past one without --force, before touching anything', async () => {
    const dataDir = join(dir, 'dates');
    const future = await run(
      ['sync', '--base-url', sim.url, '--data-dir', dataDir, '--snapshot-date', '2999-01-01', '--force'],
      {
        CW_API_KEY: KEY,
      },
    );
    expect(future.code).toBe(2);
    expect(lines(future.stderr)).toEqual([
      expect.stringMatching(/^campaign-warehouse: --snapshot-date: 2999-01-01 is in the future/),
    ]);
    const past = await run(
      ['sync', '--base-url', sim.url, '--data-dir', dataDir, '--snapshot-date', '2026-11-01'],
      {
        CW_API_KEY: KEY,
      },
    );
    expect(past.code).toBe(2);
    expect(lines(past.stderr)).toEqual([
      expect.stringMatching(
        /^campaign-warehouse: --snapshot-date: 2026-11-01 is not the latest completed refresh .*--force/,
      ),
    ]);
    expect(existsSync(dataDir)).toBe(false);
  });
});
