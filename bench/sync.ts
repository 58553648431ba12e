/**
 * `npm run bench -- sync [--rps R] [--campaigns N]`: a full sync against the simulator
 * limiting at R requests/s (token bucket, burst R): wall time against the floor
 * (requests / R), the share of 429s, peak RSS of the sync process.
 * Targets: within 1.15 of the floor, under 1% 429s.
 */
import { flag, report, runSyncCli, startSimulatorProcess } from './bench-processes.js';

export async function runSyncBench(args: string[]): Promise<Record<string, number>> {
  const rps = flag(args, 'rps', 50);
  const campaigns = flag(args, 'campaigns', 150);
  const sim = await startSimulatorProcess([
    '--campaigns',
    String(campaigns),
    '--posts-per-campaign',
    '150',
    '--influencers-per-campaign',
    '20',
    '--rps',
    String(rps),
    '--burst',
    String(Math.max(1, Math.round(rps / 5))),
  ]);
  try {
    const { run, summary } = await runSyncCli(sim.url, rps);
    const floorS = summary.requests / rps;
    const figures = {
      rate_limit_rps: rps,
      requests: summary.requests,
      floor_s: round(floorS),
      sync_s: round(summary.durationMs / 1000),
      process_wall_s: round(run.wallMs / 1000),
      vs_floor: round(summary.durationMs / 1000 / floorS),
      throttled_429: summary.throttled,
      throttled_share: round(summary.throttled / summary.requests, 4),
      peak_rss_mb: round(run.maxRssMb),
    };
    report(
      `sync against a simulator limiting at ${rps} req/s (targets: vs_floor <= 1.15, throttled_share < 0.01)`,
      figures,
    );
    return figures;
  } finally {
    await sim.stop();
  }
}

const round = (x: number, digits = 2) => Math.round(x * 10 ** digits) / 10 ** digits;
