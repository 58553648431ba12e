/**
 * `npm run bench -- sync [--runs N] [--only NAME]`: full syncs (the CLI, as a user runs
 * it) against a simulator process in four scenarios, each the median of
 * `runs` (default 3): wall time of the sync against its floor, the share of 429s, and the
 * peak RSS of the sync process.
 *
 * - plain: a token bucket at the sync's rate (50/s, burst 10, announced). Floor: requests
 *   / 50. Target: at most 1.15, no 429.
 * - overload: 5% of requests answered 429 whatever the rate, Retry-After 1 to 2 s; no
 *   limit. Floor: successful requests / rps + the Retry-After waits. Target: at most 1.25.
 * - half: a server limiting at half of --rps (10/s vs 20, burst 2) that announces nothing.
 *   Floor: requests / 10. Targets: at most 1.3, 429s at most 5% of requests.
 * - strict: a strict bucket (25/s, burst 1) just above --rps 20. Floor: requests / 20.
 *   Target: at most 1.15, no 429.
 * - strict-loaded: strict on a busy machine (busy-cores.ts): the sync on one core with two
 *   busy processes and a busy worker thread in its own process, the simulator alone on the
 *   other core at real-time priority when allowed. Floor: requests / 20. Target: no 429
 *   (its time is reported, not judged: the load may slow it).
 *
 * The floors are what the API allows, with no time lost. The sync's duration includes
 * opening the staging file and publishing (a second or less). Measurements: bench/RESULTS.md.
 */
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { packageRoot } from '../src/util/package-root.js';
import { flag, type Launch, report, runSyncCli, startSimulatorProcess } from './bench-processes.js';
import { busyProcesses, CLIENT_CORE, onCore, realTime, SERVER_CORE } from './busy-cores.js';

const BUSY_WORKER = join(packageRoot(), 'bench', 'busy-worker.mjs');
/** Longest a busy loop of the loaded scenario may run should the bench die without stopping it. */
const MAX_BUSY_MS = 5 * 60_000;

interface Scenario {
  readonly name: string;
  /** The simulator's options. */
  readonly sim: readonly string[];
  readonly campaigns: number;
  readonly rps: number;
  /** Seconds the sync could not go faster than, from its summary. */
  floorS(s: { requests: number; throttled: number; waitMs: number }): number;
  readonly maxVsFloor: number;
  readonly max429Share: number;
  /** Run on a busy machine (busy-cores.ts). */
  readonly loaded?: boolean;
}

const SCENARIOS: readonly Scenario[] = [
  {
    name: 'plain',
    sim: ['--rps', '50', '--burst', '10'],
    campaigns: 150,
    rps: 50,
    floorS: (s) => s.requests / 50,
    maxVsFloor: 1.15,
    max429Share: 0,
  },
  {
    name: 'overload',
    sim: ['--overload-rate', '0.05', '--overload-retry-after', '1000-2000'],
    campaigns: 40,
    rps: 50,
    floorS: (s) => (s.requests - s.throttled) / 50 + s.waitMs / 1000,
    maxVsFloor: 1.25,
    max429Share: 1,
  },
  {
    name: 'half',
    sim: ['--rps', '10', '--burst', '2', '--quiet-limit'],
    campaigns: 60,
    rps: 20,
    floorS: (s) => s.requests / 10,
    maxVsFloor: 1.3,
    max429Share: 0.05,
  },
  {
    name: 'strict',
    sim: ['--rps', '25', '--burst', '1'],
    campaigns: 60,
    rps: 20,
    floorS: (s) => s.requests / 20,
    maxVsFloor: 1.15,
    max429Share: 0,
  },
  {
    name: 'strict-loaded',
    sim: ['--rps', '25', '--burst', '1'],
    campaigns: 60,
    rps: 20,
    floorS: (s) => s.requests / 20,
    maxVsFloor: Number.POSITIVE_INFINITY,
    max429Share: 0,
    loaded: true,
  },
];

export async function runSyncBench(args: string[]): Promise<Record<string, number>> {
  const runs = flag(args, 'runs', 3);
  const only = args[args.indexOf('--only') + 1];
  const figures: Record<string, number> = { runs };
  let peakRss = 0;
  for (const scenario of SCENARIOS) {
    if (args.includes('--only') && scenario.name !== only) continue;
    const results: {
      vsFloor: number;
      share: number;
      throttled: number;
      requests: number;
      syncS: number;
      floorS: number;
    }[] = [];
    for (let i = 0; i < runs; i++) {
      const sim = await startSimulatorProcess(
        [
          '--campaigns',
          String(scenario.campaigns),
          '--posts-per-campaign',
          '150',
          '--influencers-per-campaign',
          '20',
          ...scenario.sim,
        ],
        scenario.loaded ? [...realTime(), ...onCore(SERVER_CORE)] : [],
      );
      const busy = scenario.loaded ? busyProcesses(2, CLIENT_CORE, MAX_BUSY_MS) : undefined;
      const launch: Launch = scenario.loaded
        ? { prefix: onCore(CLIENT_CORE), nodeFlags: ['--import', BUSY_WORKER] }
        : {};
      try {
        const { run, summary } = await runSyncCli(sim.url, scenario.rps, undefined, [], launch);
        const waitMs = summary.overloadWaitMs + summary.rateLimitWaitMs;
        const floorS = scenario.floorS({ ...summary, waitMs });
        const syncS = summary.durationMs / 1000;
        results.push({
          vsFloor: syncS / floorS,
          share: summary.throttled / summary.requests,
          throttled: summary.throttled,
          requests: summary.requests,
          syncS,
          floorS,
        });
        peakRss = Math.max(peakRss, run.maxRssMb);
        process.stdout.write(
          `  ${scenario.name} run ${i + 1}: ${round(syncS)} s, floor ${round(floorS)} s, ${round(syncS / floorS)} of it, ` +
            `${summary.throttled} 429s of ${summary.requests} requests\n`,
        );
      } finally {
        await busy?.stop();
        await sim.stop();
      }
    }
    const mid = median(results.map((r) => r.vsFloor));
    const chosen = results.find((r) => r.vsFloor === mid)!;
    const share = median(results.map((r) => r.share));
    figures[`${scenario.name}_vs_floor`] = round(mid);
    figures[`${scenario.name}_429_share`] = round(share, 4);
    figures[`${scenario.name}_sync_s`] = round(chosen.syncS);
    figures[`${scenario.name}_floor_s`] = round(chosen.floorS);
    figures[`${scenario.name}_requests`] = chosen.requests;
    figures[`${scenario.name}_met`] = mid <= scenario.maxVsFloor && share <= scenario.max429Share ? 1 : 0;
    if (scenario.loaded) {
      figures[`${scenario.name}_429s_max`] = Math.max(...results.map((r) => r.throttled));
      figures[`${scenario.name}_loadavg`] = round(loadavg()[0]!);
    }
  }
  figures.peak_rss_mb = round(peakRss);
  report(
    'sync against the simulator, median of runs (targets: plain and strict <= 1.15 and no 429; overload <= 1.25; half <= 1.3 and 429s <= 5%; strict-loaded no 429)',
    figures,
  );
  return figures;
}

function median(xs: readonly number[]): number {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
}

const round = (x: number, digits = 2) => Math.round(x * 10 ** digits) / 10 ** digits;
