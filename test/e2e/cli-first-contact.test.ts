/**
 * A data directory belongs to one API account, and a sync writes nothing before the API has
 * accepted its key and said which account that is: through the built CLI, against simulators
 * on loopback (two seeds: two accounts, their workspaces apart).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSimulator } from '../../src/simulator/start-simulator.js';
import { Database } from '../../src/state/sqlite-database.js';
import { ensureBuiltCli } from '../helpers/built-cli.js';
import { tableRows } from '../helpers/report-html.js';
import { lines, loopbackSync, run, spawnCli } from '../helpers/run-cli.js';
import { SMALL, startSim } from '../helpers/sync-harness.js';
import { tempDir } from '../helpers/temp-dir.js';
import { startWebhookReceiver } from '../helpers/webhook-receiver.js';

const KEY = { CW_API_KEY: 'sim-key' };
const SIZE = { ...SMALL, campaigns: 2 };

/**
 * Every file under `dir` with its size and modification time: what "untouched" compares.
 * SQLite's -shm and -wal files are left out: a reader of the state database (status, a sync's
 * look at the recorded source) maps them, as SQLite does for every reader of a WAL database.
 */
function tree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (at: string) => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      const path = join(at, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (!/-(shm|wal)$/.test(entry.name)) {
        const s = statSync(path);
        out[path.slice(dir.length)] = `${s.size}:${s.mtimeMs}`;
      }
    }
  };
  walk(dir);
  return out;
}

describe('a data directory belongs to one API account', () => {
  let a: RunningSimulator;
  let b: RunningSimulator;
  const dir = tempDir('cw-first-contact-');
  const sync = (sim: RunningSimulator, dataDir: string, ...more: string[]) =>
    run(loopbackSync(sim.url, dataDir, ...more), KEY);

  beforeAll(async () => {
    ensureBuiltCli();
    [a, b] = await Promise.all([startSim({ size: SIZE }), startSim({ seed: 12, size: SIZE })]);
  }, 120_000);
  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
  });

  it("records the first sync's source, refuses another account (exit 2, one line, nothing written), and --force-source adopts it", async () => {
    const dataDir = join(dir, 'one-account');
    expect((await sync(a, dataDir)).code).toBe(0);
    const status = await run(['status', '--data-dir', dataDir]);
    expect(status.stdout).toContain(`source: ${a.url} (workspaces `);

    const before = tree(dataDir);
    const refused = await sync(b, dataDir);
    expect(refused.code).toBe(2);
    expect(lines(refused.stderr)).toEqual([
      expect.stringMatching(
        new RegExp(
          `--data-dir ${dataDir} holds the figures of ${a.url} \\(workspaces .+\\), not of this sync's source ${b.url} \\(workspaces .+\\): nothing was written; .*--force-source`,
        ),
      ),
    ]);
    expect(refused.stderr).not.toContain('sim-key');
    expect(tree(dataDir)).toEqual(before);

    // The same account at the same base URL is the same source.
    expect((await sync(a, dataDir)).code).toBe(0);

    const forced = await sync(b, dataDir, '--force-source');
    expect(forced.code).toBe(0);
    expect(forced.stderr).toContain(`--force-source: this data directory's source is now ${b.url}`);
    expect((await run(['status', '--data-dir', dataDir])).stdout).toContain(`source: ${b.url} (workspaces `);
  }, 300_000);

  it("a warehouse from before sources were recorded adopts its next sync's source", async () => {
    const dataDir = join(dir, 'older');
    expect((await sync(a, dataDir)).code).toBe(0);
    const state = new Database(join(dataDir, 'state.sqlite'));
    try {
      state.prepare("delete from meta where key = 'sync_source'").run();
    } finally {
      state.close();
    }
    expect((await run(['status', '--data-dir', dataDir])).stdout).toContain('source: none recorded');
    expect((await sync(a, dataDir)).code).toBe(0);
    expect((await run(['status', '--data-dir', dataDir])).stdout).toContain(`source: ${a.url} (workspaces `);
  }, 300_000);

  it('a refused key creates nothing: exit 1, one line, the data directory as it was', async () => {
    const missing = join(dir, 'wrong-key', 'data');
    const refused = await run(loopbackSync(a.url, missing), {
      CW_API_KEY: 'not-the-key-0123456789',
    });
    expect(refused.code).toBe(1);
    expect(lines(refused.stderr)).toEqual([
      expect.stringMatching(
        /^campaign-warehouse: 401 Unauthorized on GET .*the API key is invalid or expired/,
      ),
    ]);
    expect(refused.stderr).not.toContain('not-the-key');
    expect(existsSync(join(dir, 'wrong-key'))).toBe(false);

    const empty = tempDir('cw-first-contact-empty-');
    expect((await run(loopbackSync(a.url, empty), { CW_API_KEY: 'nope' })).code).toBe(1);
    expect(readdirSync(empty)).toEqual([]);
  }, 120_000);

  it('a refused key creates nothing with notifications configured too, and the failure is still sent', async () => {
    const receiver = await startWebhookReceiver();
    try {
      const missing = join(dir, 'wrong-key-notify', 'data');
      const env = {
        CW_API_KEY: 'not-the-key-0123456789',
        CW_NOTIFY_WEBHOOK: `${receiver.url}/slack`,
        CW_HEARTBEAT_URL: `${receiver.url}/ping`,
      };
      const refused = await run(loopbackSync(a.url, missing), env);
      expect(refused.code).toBe(1);
      expect(lines(refused.stderr).at(-1)).toMatch(/^campaign-warehouse: 401 Unauthorized on GET /);
      expect(existsSync(join(dir, 'wrong-key-notify'))).toBe(false);
      // The heartbeat's start and fail, and the webhook's sync_failed: sent without a state database.
      const paths = receiver.received.map((r) => r.path).sort();
      expect(paths).toEqual(['/ping/fail', '/ping/start', '/slack']);
      const slack = receiver.received.find((r) => r.path === '/slack')!.body;
      expect(slack).toMatch(/sync of \d{4}-\d\d-\d\d failed: 401 Unauthorized/);
      expect(slack).not.toContain('not-the-key');

      const empty = tempDir('cw-first-contact-notify-');
      const again = await run(loopbackSync(a.url, empty), env);
      expect(again.code).toBe(1);
      expect(readdirSync(empty)).toEqual([]);
    } finally {
      await receiver.close();
    }
  }, 120_000);

  it('--campaign naming a campaign the API does not list: refused at start, exit 2, one line, nothing written', async () => {
    const dataDir = join(dir, 'no-such-campaign');
    const refused = await sync(a, dataDir, '--campaign', '9999');
    expect(refused.code).toBe(2);
    expect(lines(refused.stderr)).toEqual([
      'campaign-warehouse: --campaign 9999: not among the 2 campaign(s) the API lists for this account (GET /v3/influencers/campaigns); nothing was written',
    ]);
    expect(existsSync(dataDir)).toBe(false);
    const known = a.model.catalog.campaigns[0]!.id;
    const one = await sync(a, dataDir, '--campaign', known, '--json');
    expect(one.code).toBe(0);
    expect(JSON.parse(one.stdout).units).toBe(1);
  }, 120_000);

  it('--dry-run prints the plan and writes nothing; after a sync it counts pages from the latest snapshot', async () => {
    const dataDir = join(dir, 'dry');
    const dry = await sync(a, dataDir, '--dry-run');
    expect(dry.code).toBe(0);
    expect(dry.stdout).toMatch(/^dry run: nothing was written/);
    expect(dry.stdout).toContain(`source        ${a.url} (workspaces `);
    expect(dry.stdout).toMatch(/units {9}2 \(segments x campaigns\)/);
    expect(dry.stdout).toMatch(/requests {6}at least \d+/);
    expect(dry.stdout).toMatch(/time {10}about \d+ s at \d+ requests\/s/);
    expect(existsSync(dataDir)).toBe(false);

    expect((await sync(a, dataDir)).code).toBe(0);
    const before = tree(dataDir);
    const plan = JSON.parse((await sync(a, dataDir, '--dry-run', '--json', '--rps', '2')).stdout);
    expect(plan).toMatchObject({ dryRun: true, sourceVerdict: 'same', campaigns: 2, units: 2, rps: 2 });
    expect(plan.requestBasis).toBe('previous-snapshot');
    expect(plan.estimatedSeconds).toBe(Math.ceil(plan.requests / 2));
    const other = JSON.parse((await sync(b, dataDir, '--dry-run', '--json')).stdout);
    expect(other.sourceVerdict).toBe('other');
    expect(tree(dataDir)).toEqual(before);
  }, 300_000);
});

describe("the README's walkthrough after npm start", () => {
  it('the demo keeps to data/demo and ends with its report; simulate, then sync and status, use ./data alone', async () => {
    ensureBuiltCli();
    const cwd = tempDir('cw-walkthrough-');
    const demo = await run(['demo'], {}, { cwd, timeoutMs: 590_000 });
    expect(demo.code, demo.stderr).toBe(0);
    expect(demo.stdout).toContain("the demo's files are in ./data/demo");
    expect(existsSync(join(cwd, 'data', 'demo', 'warehouse.duckdb'))).toBe(true);
    expect(readdirSync(join(cwd, 'data'))).toEqual(['demo']);
    // The log holds only the warnings of the spike the demo injects on purpose (segments all
    // and instagram).
    const spiked = demo.stdout.match(/injected on the last night: a spike of campaign (\d+)/)?.[1];
    expect(spiked).toBeDefined();
    expect(
      lines(demo.stderr).map((line) => {
        const { msg, campaigns } = JSON.parse(line) as { msg: string; campaigns: string[] };
        return `${msg.replace(/ \(\w+\) .*/, '')} ${campaigns}`;
      }),
    ).toEqual([`history check failed: campaign_engagement_anomaly ${spiked}`].flatMap((w) => [w, w]));
    // It ends by writing the report into its folder and printing the path.
    expect(demo.stdout).toContain(`wrote ${join('data', 'demo', 'report.html')}`);
    const page = readFileSync(join(cwd, 'data', 'demo', 'report.html'), 'utf8');
    expect(page.match(/<figure class="chart"/g)).toHaveLength(6);
    // Fourteen nights: lines over time, and the injected spike flagged in "what changed".
    expect(new Set(tableRows(page, 't-campaigns').map((row) => row[0])).size).toBe(14);
    expect(tableRows(page, 't-history-failures').map((row) => row[0])).toEqual([
      'campaign_engagement_anomaly',
    ]);
    expect(demo.stdout).toMatch(/history checks: against \d{4}-\d{2}-\d{2}: [12] of 14 FAILED/);

    const simulate = spawnCli(['simulate', '--port', '0']);
    try {
      while (!/listening on (\S+)/.test(simulate.stdout())) {
        if (simulate.process.exitCode !== null) throw new Error(simulate.stderr());
        await new Promise((r) => setTimeout(r, 50));
      }
      const url = /listening on (\S+)/.exec(simulate.stdout())![1]!;
      const env = { CW_BASE_URL: url, CW_API_KEY: 'sim-key' };
      const synced = await run(['sync', '--force'], env, { cwd, timeoutMs: 300_000 });
      expect(synced.code).toBe(0);
      expect(synced.stdout).not.toContain('FAILED');
      const status = await run(['status'], env, { cwd });
      expect(status.stdout).toContain(`source: ${url} (workspaces `);
      expect(status.stdout).toMatch(/\n {2}workspaces +2\n/);
      expect(status.stdout).toMatch(/\n {2}campaigns +8\n/);
      // The demo's folder is the demo's simulator's: a sync of another source is refused.
      const mixed = await run(['sync', '--force', '--data-dir', 'data/demo'], env, { cwd });
      expect(mixed.code).toBe(2);
      expect(lines(mixed.stderr)).toEqual([expect.stringContaining("the demo's simulator")]);
    } finally {
      simulate.process.kill('SIGTERM');
      await simulate.exited;
    }
  }, 900_000);
});
