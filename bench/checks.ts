/**
 * `npm run bench -- checks [--campaigns N] [--posts P] [--history-days D]`: what the data
 * checks add to a sync, run on the staged figures before the publish: the rule checks
 * (sql/checks/) and the history checks (sql/checks/history/, comparing the staged day with
 * the previous snapshots of the lake). The account: 170k posts (200 campaigns, 171 of them
 * with 1,000 posts on average) with 180 days of history (one synced night cloned to 179 more, as hard links),
 * then the measured sync of the next night (the latest completed refresh), as a user runs it against a simulator process
 * with schema drift on (the drift scan reads every post's raw record) and without a rate
 * limit: the fastest a sync gets, so the checks' share is at its largest.
 * Targets: the rule checks add at most 10% to the sync's time; the history checks at most 5%.
 * Also shown: their share of the same sync at the default 5 requests/s (its floor,
 * requests / 5), what a nightly run against the real API takes. Measurements: bench/RESULTS.md.
 */
import { DEFAULT_RPS } from '../src/config/sync-config.js';
import { latestCompletedRefresh } from '../src/extract/snapshot-date.js';
import { flag, report, runSyncCli, startSimulatorProcess, tempDir } from './bench-processes.js';
import { cloneDays, datesAfter } from './lake-history.js';

/**
 * Defaults: 200 campaigns of 1,000 posts on average, about 170,000 posts (the
 * account the checks' targets were set on): every seventh simulated campaign has no posts.
 */
const DEFAULT_CAMPAIGNS = 200;
const DEFAULT_POSTS = 1_000;
/** Days of history before the measured night: half a year of nightly syncs. */
const DEFAULT_HISTORY_DAYS = 180;
/** "Unthrottled": far above what the simulator process serves. */
const UNTHROTTLED_RPS = 10_000;
const DAY_MS = 86_400_000;

interface ChecksSummary {
  durationMs: number;
  ran: number;
  error?: string;
  history: { results: { status: string }[]; files: number; durationMs: number };
}

export async function runChecksBench(args: string[]): Promise<Record<string, number>> {
  const campaigns = flag(args, 'campaigns', DEFAULT_CAMPAIGNS);
  const posts = flag(args, 'posts', DEFAULT_POSTS);
  const historyDays = Math.max(1, flag(args, 'history-days', DEFAULT_HISTORY_DAYS));
  const dataDir = tempDir('checks');
  // The measured night is the latest completed refresh (a sync's date by default); the
  // history's first night, `history-days` before it, is synced with --snapshot-date, then
  // cloned to the nights in between.
  const measuredNight = latestCompletedRefresh(new Date());
  const firstNight = new Date(Date.parse(measuredNight) - historyDays * DAY_MS).toISOString().slice(0, 10);
  await syncNight(firstNight, campaigns, posts, dataDir, ['--snapshot-date', firstNight]);
  cloneDays(dataDir, firstNight, datesAfter(firstNight, historyDays - 1));
  const { run, summary } = await syncNight(measuredNight, campaigns, posts, dataDir);
  const checks = (summary as typeof summary & { checks: ChecksSummary }).checks;
  if (checks.error) throw new Error(`bench checks: ${checks.error}`);
  const syncS = summary.durationMs / 1000;
  const checksS = checks.durationMs / 1000;
  const historyS = checks.history.durationMs / 1000;
  const ruleS = checksS - historyS;
  const floorS = summary.requests / DEFAULT_RPS;
  const figures = {
    posts: summary.rowsByTable.post_metrics ?? 0,
    history_days: historyDays,
    requests: summary.requests,
    rule_checks_run: checks.ran,
    history_checks_run: checks.history.results.length,
    history_checks_failed: checks.history.results.filter((r) => r.status === 'failed').length,
    history_files_read: checks.history.files,
    sync_s: round(syncS),
    rule_checks_s: round(ruleS, 3),
    history_checks_s: round(historyS, 3),
    rule_checks_share_unthrottled: round(ruleS / (syncS - checksS), 4),
    history_checks_share_unthrottled: round(historyS / (syncS - historyS), 4),
    checks_share_at_default_rps: round(checksS / floorS, 5),
    peak_rss_mb: round(run.maxRssMb),
  };
  report(
    `data checks in a sync of ${figures.posts} posts with drift and ${historyDays} days of history, unthrottled ` +
      '(targets: rule_checks_share_unthrottled <= 0.10, history_checks_share_unthrottled <= 0.05)',
    figures,
  );
  return figures;
}

/** One night's sync from its own simulator process, its clock at 22:30 UTC that night. */
async function syncNight(
  night: string,
  campaigns: number,
  posts: number,
  dataDir: string,
  extraArgs: readonly string[] = [],
) {
  const sim = await startSimulatorProcess([
    '--campaigns',
    String(campaigns),
    '--posts-per-campaign',
    String(posts),
    '--influencers-per-campaign',
    '60',
    '--drift',
    '--start-time',
    `${night}T22:30:00Z`,
  ]);
  try {
    return await runSyncCli(sim.url, UNTHROTTLED_RPS, dataDir, extraArgs);
  } finally {
    await sim.stop();
  }
}

const round = (x: number, digits = 2) => Math.round(x * 10 ** digits) / 10 ** digits;
