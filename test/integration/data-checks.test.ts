/**
 * The data checks after a sync (sql/checks/), against the simulator breaking its own
 * consistency for chosen campaigns, with schema drift and transport faults on.
 */
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { formatStatus, statusReport } from '../../src/cli/status-report.js';
import { checkBeforePublish } from '../../src/extract/check-before-publish.js';
import { RunRegistry } from '../../src/extract/run-registry.js';
import { runSync } from '../../src/extract/run-sync.js';
import type { Inconsistency } from '../../src/simulator/inconsistency.js';
import type { RunningSimulator, ViewFilter } from '../../src/simulator/start-simulator.js';
import { startSink } from '../../src/sink/start-sink.js';
import { openStateDb } from '../../src/state/state-db.js';
import { listDataChecks } from '../../src/warehouse/checks/run-data-checks.js';
import {
  checksums,
  quietLogger,
  rows,
  SIM_START,
  SNAPSHOT,
  startSim,
  sync,
  syncConfig,
  tempDataDir,
} from '../helpers/sync-harness.js';

const FAULTS = { error500Rate: 0.04, resetRate: 0.02, truncateRate: 0.02, invalidJsonRate: 0.02 };
const VIDEO = { name: 'video', sources: ['tiktok', 'instagram'] };
const [NUM_POSTS, INFLUENCER, NETWORK, REACH] = ['5000', '5001', '5002', '5004'];
const BROKEN: Inconsistency[] = [
  { campaignId: NUM_POSTS, kind: 'num_posts', delta: 3 },
  { campaignId: INFLUENCER, kind: 'influencer' },
  { campaignId: NETWORK, kind: 'network' },
  { campaignId: REACH, kind: 'reach' },
];

let sims: RunningSimulator[] = [];
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all([...sims.map((s) => s.close()), ...closers.splice(0).map((close) => close())]);
  sims = [];
});

async function sim(options: Parameters<typeof startSim>[0] = {}): Promise<RunningSimulator> {
  const started = await startSim(options);
  sims.push(started);
  return started;
}

/** `check|segment|campaign|entity` of every disagreement the broken campaigns must cause. */
function expectedFailures(s: RunningSimulator, segment: string, filter: ViewFilter): string[] {
  const key = (check: string, campaign: string, entity = '') => `${check}|${segment}|${campaign}|${entity}`;
  const unfiltered = !filter.sources;
  const influencer = s.model
    .influencers(INFLUENCER, filter, SNAPSHOT)
    .find((i) => (i.campaign_metrics as { num_posts: number }).num_posts > 0)!.id as string;
  const network = Object.keys(
    (s.model.campaignDetail(NETWORK, filter, SNAPSHOT) as { sources: object }).sources,
  )[0]!;
  return [
    ...(unfiltered ? [key('campaign_posts_counted', NUM_POSTS)] : []),
    key('network_posts_add_up', NUM_POSTS),
    key('influencer_posts_counted', INFLUENCER, influencer),
    key('influencer_engagement_summed', INFLUENCER, influencer),
    key('influencer_emv_summed', INFLUENCER, influencer),
    key('network_engagement_summed', NETWORK, network),
    key('network_emv_summed', NETWORK, network),
    key('network_engagement_add_up', NETWORK),
    key('network_emv_add_up', NETWORK),
  ].sort();
}

function captureLog(): { logger: pino.Logger; lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  return { logger: pino({ level: 'info' }, stream), lines };
}

describe('data checks', () => {
  it('flag exactly the broken campaigns and entities, with drift and faults on, and never reach', async () => {
    const s = await sim({ drift: true, faults: FAULTS, inconsistent: BROKEN });
    const dataDir = tempDataDir();
    const log = captureLog();
    const summary = await runSync(syncConfig(s, dataDir, { segments: [VIDEO] }), {
      logger: log.logger,
      now: () => s.clock.now(),
    });
    expect(Object.values(s.stats().faults).reduce((a, b) => a + b, 0)).toBeGreaterThan(0);

    const failures = await rows(
      dataDir,
      "select check_name || '|' || segment || '|' || campaign_id || '|' || coalesce(entity_id, '') as k from data_check_failures order by k",
    );
    const expected = [
      ...expectedFailures(s, 'all', {}),
      ...expectedFailures(s, 'video', { sources: VIDEO.sources }),
    ].sort();
    expect(failures.map((f) => f.k)).toEqual(expected);
    // The campaign whose every reach figure was changed is in no failure: no check reads reach.
    expect(expected.some((k) => k.includes(`|${REACH}|`))).toBe(false);
    const served = s.model.campaignDetail(REACH, {}, SNAPSHOT) as { metrics: { total_reach: number } };
    expect(
      await rows(
        dataDir,
        "select total_reach from campaign_metrics where campaign_id = ? and segment = 'all'",
        [REACH],
      ),
    ).toEqual([{ total_reach: served.metrics.total_reach * 3 + 17 }]);

    // One row per check and segment, passed or not; failed exactly where failures are.
    const checks = await rows(
      dataDir,
      "select * from data_checks where kind = 'rule' order by check_name, segment",
    );
    expect(checks).toHaveLength(listDataChecks().length * 2);
    // The history checks ran too, and had nothing to compare with on a first snapshot.
    const history = await rows(dataDir, "select distinct status from data_checks where kind = 'history'");
    expect(history).toEqual([{ status: 'skipped' }]);
    expect(summary.checks.history.results).toHaveLength(listDataChecks('history').length * 2);
    expect(new Set(checks.map((c) => c.run_id))).toEqual(new Set([summary.runId]));
    const failedChecks = checks
      .filter((c) => c.status === 'failed')
      .map((c) => `${c.check_name}|${c.segment}`);
    expect(failedChecks.sort()).toEqual(
      [...new Set(expected.map((k) => k.split('|').slice(0, 2).join('|')))].sort(),
    );
    for (const c of checks) if (c.status !== 'failed') expect(c.failing).toBe(0);

    // Warn mode: the run published, and the summary, the JSON log, status and /metrics name them.
    expect(summary.checks.failed.map((f) => f.check)).toContain('campaign_posts_counted');
    const warned = log.lines.filter((l) => l.msg?.toString().startsWith('data check failed'));
    expect(warned.map((l) => `${l.check}|${l.segment}|${(l.campaigns as string[]).join(',')}`)).toContain(
      `campaign_posts_counted|all|${NUM_POSTS}`,
    );
    const status = await statusReport(dataDir);
    expect(status.dataChecks?.failed.length).toBe(failedChecks.length);
    const text = formatStatus(status);
    expect(text).toMatch(new RegExp(`campaign_posts_counted \\(all: 1 campaign\\(s\\): ${NUM_POSTS}\\)`));
    expect(text).toMatch(/new schema drift: .*network network youtube/);

    const sink = await startSink({ dataDir, port: 0, publishIntervalMs: 600_000, logger: quietLogger });
    closers.push(() => sink.close());
    const metrics = await (await fetch(`${sink.url}/metrics`)).text();
    expect(metrics).toContain('cw_data_check_failing{check="campaign_posts_counted",segment="all"} 1');
    expect(metrics).toContain('cw_data_check_failing{check="post_influencer_listed",segment="all"} 0');
    expect(metrics).toContain(
      `cw_data_check_failing_campaign{check="influencer_emv_summed",segment="video",campaign_id="${INFLUENCER}"} 1`,
    );

    // Drift is reported, not failed.
    const drift = await rows(dataDir, "select level || ' ' || kind || ' ' || name as d from schema_drift");
    expect(drift.map((d) => d.d)).toEqual(
      expect.arrayContaining([
        'network network youtube',
        'post stat clicks',
        'campaign field x_partner_note',
      ]),
    );
  });

  it('pass on the simulator left consistent, the engagement rates included', async () => {
    const s = await sim();
    const dataDir = tempDataDir();
    const summary = await sync(
      s,
      syncConfig(s, dataDir, { segments: [{ name: 'tagged', tags: ['100', '101'] }] }),
    );
    expect(summary.checks.failed).toEqual([]);
    const statuses = await rows(
      dataDir,
      "select check_name, status from data_checks where segment = 'all' and kind = 'rule'",
    );
    expect(statuses.every((c) => c.status === 'passed')).toBe(true);
    expect(await rows(dataDir, 'select * from schema_drift')).toEqual([]);
  });

  it('--strict fails before the publish in one line, leaves the warehouse as it was, and refetches the failing campaigns next time', async () => {
    const dataDir = tempDataDir();
    const day1 = await sim();
    await sync(day1, syncConfig(day1, dataDir));
    const before = await checksums(dataDir);

    const nextDay = new Date(SIM_START.getTime() + 86_400_000);
    const broken = await sim({ startTime: nextDay, inconsistent: [BROKEN[0]!] });
    const error = await sync(broken, syncConfig(broken, dataDir, { checks: 'strict' })).catch(
      (e: Error) => e,
    );
    expect(error).toBeInstanceOf(Error);
    const message = (error as Error).message;
    expect(message.split('\n')).toHaveLength(1);
    expect(message).toContain('data checks failed (strict), nothing published');
    expect(message).toContain(`campaign_posts_counted (all: 1 campaign(s): ${NUM_POSTS})`);
    expect(await checksums(dataDir)).toEqual(before);
    const runs = await rows(dataDir, 'select status, snapshot_date from sync_runs order by started_at');
    expect(runs.map((r) => r.status)).toEqual(['succeeded', 'failed']);
    const status = await statusReport(dataDir);
    expect(status.dataChecks).toMatchObject({ mode: 'strict', snapshotDate: '2026-11-21' });

    // The API fixed: the next attempt fetches the failing campaign again (only it) and publishes.
    const fixed = await sim({ startTime: nextDay });
    const resumed = await sync(fixed, syncConfig(fixed, dataDir, { checks: 'strict' }));
    expect(resumed).toMatchObject({ resumed: true, units: 5, unitsSkipped: 4 });
    expect(resumed.checks.failed).toEqual([]);
    expect(
      await rows(
        dataDir,
        "select count(*)::int as n from data_checks where snapshot_date = '2026-11-21' and kind = 'rule'",
      ),
    ).toEqual([{ n: listDataChecks().length }]);
  });

  it("status shows the latest snapshot's checks, not those of a forced re-run of an earlier day", async () => {
    const dataDir = tempDataDir();
    const day1 = await sim({ inconsistent: [BROKEN[0]!] });
    await sync(day1, syncConfig(day1, dataDir));
    const nextDay = new Date(SIM_START.getTime() + 86_400_000);
    const day2 = await sim({ startTime: nextDay });
    await sync(day2, syncConfig(day2, dataDir));
    // Then day 1 again, forced (its figures are day 2's, broken again): the newest run.
    const again = await sim({ startTime: nextDay, inconsistent: [BROKEN[0]!] });
    await sync(again, syncConfig(again, dataDir, { snapshotDate: SNAPSHOT, force: true }));
    const status = await statusReport(dataDir);
    expect(status.latestSnapshot).toBe('2026-11-21');
    expect(status.dataChecks).toMatchObject({ snapshotDate: '2026-11-21', failed: [] });
    expect(status.dataChecks?.ran).toBe(listDataChecks().length);
    expect(formatStatus(status)).toMatch(
      /^data checks \(snapshot 2026-11-21, run [^)]*\): \d+ ran, none failed$/m,
    );
  });

  it('that cannot run stop a strict run only: a default run publishes unchecked and says so', async () => {
    const dataDir = tempDataDir();
    const state = openStateDb(dataDir);
    closers.push(async () => state.close());
    const input = {
      stagingPath: `${dataDir}/no-such-dir/sync.duckdb`,
      dataDir,
      snapshotDate: SNAPSHOT,
      runId: 'r1',
      segments: [{ name: 'all' }],
      logger: quietLogger,
      state,
      registry: new RunRegistry(state),
      now: () => SIM_START,
    };
    const warned = await checkBeforePublish({ ...input, mode: 'warn' });
    expect(warned.error).toMatch(/^data checks could not run: /);
    const strict = await checkBeforePublish({ ...input, mode: 'strict' }).catch((e: Error) => e);
    expect((strict as Error).message).toMatch(/^data checks could not run: .*\(strict: nothing published\)$/);
    state.close();
    closers.pop();
    expect((await statusReport(dataDir)).dataChecks?.error).toMatch(/could not run/);
  });
});
