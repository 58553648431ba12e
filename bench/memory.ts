/**
 * `npm run bench -- memory [--posts N]`: peak RSS of a sync of about N posts and of 4N
 * posts (default N = 250,000, so 4N = 1,000,000), the simulator unthrottled in another
 * process. Targets: at most 300 MB at 1M posts, under 20% growth from N to 4N.
 */
import { flag, report, runSyncCli, startSimulatorProcess } from './bench-processes.js';

const CAMPAIGNS = 100;

async function syncPosts(posts: number): Promise<{ posts: number; rssMb: number; seconds: number }> {
  // Campaign sizes vary around the mean and every seventh has none: 7/6 compensates.
  const perCampaign = Math.ceil(((posts / CAMPAIGNS) * 7) / 6);
  const sim = await startSimulatorProcess([
    '--campaigns',
    String(CAMPAIGNS),
    '--posts-per-campaign',
    String(perCampaign),
    '--influencers-per-campaign',
    '30',
  ]);
  try {
    const { run, summary } = await runSyncCli(sim.url, 10_000);
    return { posts: summary.rowsByTable.posts ?? 0, rssMb: run.maxRssMb, seconds: summary.durationMs / 1000 };
  } finally {
    await sim.stop();
  }
}

export async function runMemoryBench(args: string[]): Promise<Record<string, number>> {
  const n = flag(args, 'posts', 250_000);
  const small = await syncPosts(n);
  const large = await syncPosts(4 * n);
  const figures = {
    posts_n: small.posts,
    peak_rss_n_mb: Math.round(small.rssMb),
    sync_n_s: Math.round(small.seconds),
    posts_4n: large.posts,
    peak_rss_4n_mb: Math.round(large.rssMb),
    sync_4n_s: Math.round(large.seconds),
    growth: Math.round((large.rssMb / small.rssMb - 1) * 1000) / 1000,
  };
  report('peak RSS of the sync process (targets: <= 300 MB at 1M posts, growth < 0.20)', figures);
  return figures;
}
