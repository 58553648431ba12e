/**
 * `npm run bench -- report [--posts N] [--days D] [--runs R]`: `campaign-warehouse report`
 * (the built CLI, a child process, as a user runs it) on a warehouse holding D nightly
 * snapshots of an account of N posts (default: 180 days of 170,000 posts, about 46M
 * post_metrics rows over two segments). Target: under 10 s with the default --days 30;
 * also timed over the whole history (--days D) and for two named campaigns.
 * The history is generated with SQL and published day by day through the lake's own
 * publishSync (report-history.ts), not synced: a sync of that size
 * through the simulator would take hours and measure the sync, not the report.
 * Measurements: bench/RESULTS.md.
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_DAYS, DEFAULT_SEGMENT } from '../src/report/report-options.js';
import { writeReport } from '../src/report/write-report.js';
import { queryReadOnly } from '../src/warehouse/read/query-read-only.js';
import { flag, report, runCli, tempDir } from './bench-processes.js';
import { fileBytes } from './lake-history.js';
import { writeHistory } from './report-history.js';

const TARGET_S = 10;

async function timeReport(
  dataDir: string,
  args: string[],
  runs: number,
): Promise<{ median: number; max: number; rssMb: number }> {
  const seconds: number[] = [];
  let rssMb = 0;
  for (let i = 0; i < runs; i++) {
    const run = await runCli(
      ['report', '--data-dir', dataDir, '--out', join(dataDir, `report-${i}.html`), ...args],
      {},
    );
    if (run.code !== 0) throw new Error(`report failed (${run.code}): ${run.stderr.slice(-500)}`);
    seconds.push(run.wallMs / 1000);
    rssMb = Math.max(rssMb, run.maxRssMb);
  }
  seconds.sort((a, b) => a - b);
  return {
    median: round(seconds[Math.floor(seconds.length / 2)]!),
    max: round(seconds.at(-1)!),
    rssMb: Math.round(rssMb),
  };
}

export async function runReportBench(args: string[]): Promise<Record<string, number | boolean>> {
  const posts = flag(args, 'posts', 170_000);
  const days = flag(args, 'days', 180);
  const runs = flag(args, 'runs', 3);
  const campaigns = Math.max(1, Math.round(posts / 500));
  const dataDir = tempDir('report');
  const built = performance.now();
  await writeHistory(
    dataDir,
    {
      days,
      posts,
      campaigns,
      influencersPerCampaign: 40,
      influencers: Math.max(40, Math.round(posts / 20)),
      documentsPerDay: 2_000,
    },
    (d) => {
      if ((d + 1) % 30 === 0 || d + 1 === days)
        process.stdout.write(`history: ${d + 1}/${days} days written\n`);
    },
  );
  const buildS = round((performance.now() - built) / 1000);
  const counts = await queryReadOnly(
    dataDir,
    'select (select count(*) from post_metrics), (select count(*) from influencer_campaign_metrics), (select count(distinct snapshot_date) from campaign_metrics)',
  );
  const [postRows, influencerRows, snapshots] = counts.rows[0]!.map(Number) as [number, number, number];
  const fileMb = Math.round(fileBytes(join(dataDir, 'lake')) / 1e6);
  process.stdout.write(
    `lake: ${fileMb} MB, ${postRows} post_metrics rows, ${snapshots} snapshots (built in ${buildS} s)\n`,
  );

  const standard = await timeReport(dataDir, [], runs);
  const whole = await timeReport(dataDir, ['--days', String(days)], runs);
  const named = await timeReport(
    dataDir,
    ['--campaign', 'c1', '--campaign', 'c2', '--segment', 'video'],
    runs,
  );
  // In process, once more: the split between reading the warehouse and drawing the page.
  const split = await writeReport({
    dataDir,
    out: join(dataDir, 'report-split.html'),
    campaigns: [],
    segment: DEFAULT_SEGMENT,
    days: DEFAULT_DAYS,
  });
  const html = statSync(join(dataDir, 'report-0.html')).size;
  const figures = {
    posts,
    snapshots,
    post_metrics_rows: postRows,
    influencer_campaign_rows: influencerRows,
    lake_mb: fileMb,
    build_s: buildS,
    report_30d_median_s: standard.median,
    report_30d_max_s: standard.max,
    report_whole_history_median_s: whole.median,
    report_two_campaigns_video_median_s: named.median,
    read_30d_ms: Math.round(split.readMs),
    render_30d_ms: Math.round(split.renderMs),
    report_peak_rss_mb: Math.max(standard.rssMb, whole.rssMb, named.rssMb),
    html_kb: Math.round(html / 1024),
    target_s: TARGET_S,
    met: Math.max(standard.max, whole.max, named.max) < TARGET_S,
  };
  report(`report on ${snapshots} days of a ${posts}-post account (target: under ${TARGET_S} s)`, figures);
  return figures;
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}
