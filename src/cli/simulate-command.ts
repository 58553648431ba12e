import { type Command, InvalidArgumentError, Option } from 'commander';
import { type Inconsistency, parseInconsistencies } from '../simulator/inconsistency.js';
import { type InjectedChange, parseChange } from '../simulator/model/history.js';
import type { SimulatorInput } from '../simulator/simulator-options.js';
import { UserError } from '../util/user-error.js';
import { numberIn, portNumber } from './number-in.js';

const rate = numberIn(0, 1);

function parseInconsistent(raw: string, previous: Inconsistency[] = []): Inconsistency[] {
  try {
    return [...previous, ...parseInconsistencies(raw)];
  } catch (error) {
    throw new InvalidArgumentError((error as Error).message);
  }
}

function collectChange(raw: string, previous: InjectedChange[] = []): InjectedChange[] {
  try {
    return [...previous, parseChange(raw)];
  } catch (error) {
    throw new InvalidArgumentError((error as Error).message);
  }
}

/** `1500` or `1000-2000` (ms): a fixed Retry-After or a range drawn from per request. */
export function msRange(raw: string): [number, number] {
  const match = /^(\d+)(?:-(\d+))?$/.exec(raw.trim());
  const min = Number(match?.[1]);
  const max = match?.[2] === undefined ? min : Number(match[2]);
  if (!match || min > max || max > 900_000)
    throw new InvalidArgumentError('expected milliseconds, or a range like 1000-2000 (at most 900000)');
  return [min, max];
}
const count = (max: number) => numberIn(0, max, true);

export function registerSimulate(program: Command): void {
  program
    .command('simulate')
    .description(
      'run the bundled API simulator until interrupted: the API as docs/api.md describes it, on loopback; ' +
        'its API key is sim-key (CW_API_KEY=sim-key)',
    )
    .option('--host <host>', 'address to listen on (loopback by default)', '127.0.0.1')
    .option('--port <n>', 'port (0: any free port)', portNumber, 8080)
    .option('--seed <n>', 'data seed: the same seed gives the same data', numberIn(0, 2 ** 31, true), 1)
    .option('--workspaces <n>', 'workspaces', count(1000), 2)
    .option('--tags-per-workspace <n>', 'influencer tags per workspace', count(1000), 4)
    .option('--campaigns <n>', 'campaigns', count(1_000_000), 8)
    .option('--posts-per-campaign <n>', 'mean posts per campaign', count(10_000_000), 40)
    .option('--influencers-per-campaign <n>', 'mean influencers per campaign', count(100_000), 12)
    .option('--rps <n>', 'rate limit: requests per second (off when absent)', numberIn(0.1, 100_000))
    .option('--burst <n>', 'rate limit: bucket size', numberIn(1, 100_000))
    .option('--quiet-limit', 'rate limit without RateLimit-* headers (a server that does not say its limit)')
    .addOption(
      new Option('--retry-after-format <format>', 'format of Retry-After on 429')
        .choices(['iso', 'http-date', 'epoch', 'delta'])
        .default('iso'),
    )
    .option('--overload-rate <r>', 'share of requests answered 429 regardless of the limit', rate, 0)
    .option(
      '--overload-retry-after <ms>',
      'Retry-After of overload 429s: ms, or a range min-max drawn per request',
      msRange,
      [1000, 1000],
    )
    .option('--fault-500 <r>', 'share of requests answered 500', rate, 0)
    .option('--fault-503 <r>', 'share of requests answered 503', rate, 0)
    .option('--fault-reset <r>', 'share of connections reset mid-body', rate, 0)
    .option('--fault-slow <r>', 'share of slow responses', rate, 0)
    .option('--slow-ms <n>', 'delay of a slow response', count(600_000), 2_000)
    .option('--fault-truncate <r>', 'share of truncated bodies', rate, 0)
    .option('--fault-invalid-json <r>', 'share of invalid JSON bodies', rate, 0)
    .option('--drift', 'schema drift: unknown fields, networks and stats, numeric strings, null metrics')
    .option(
      '--inconsistent <list>',
      'break the API consistency rules for chosen campaigns: <campaignId>:num_posts+N|num_posts-N|influencer|network|reach, comma-separated',
      parseInconsistent,
    )
    .option(
      '--history',
      'figures of live campaigns over simulated days: posts appear over the campaign, interactions ramp up with noise, a post now and then loses a few likes',
    )
    .option(
      '--change <day:kind:campaigns>',
      'inject a change from a day on for chosen campaigns, e.g. 2026-11-20:spike:5001,5003; kinds: fall (figures halve), vanish (a fifth of the posts), network (every post of one network), spike (tenfold); repeatable',
      collectChange,
    )
    .option('--tls', 'serve HTTPS with a generated self-signed certificate (printed as PEM)')
    .option('--start-time <iso>', 'start of the simulated clock (default: now)')
    .option('--deliveries-per-second <n>', 'pushes per second to each live hook', numberIn(0, 10_000), 2)
    .action(runSimulateCommand);
}

/** `simulate`: the simulator listening until SIGINT/SIGTERM, then closed. */
async function runSimulateCommand(o: SimulateFlags): Promise<void> {
  const input = simulatorInput(o);
  // Listen before starting, so a signal right after "listening" still closes cleanly.
  const [{ startSimulator }, { listenForStop }, { listenFailure }] = await Promise.all([
    import('../simulator/start-simulator.js'),
    import('../util/stop-signals.js'),
    import('../util/listen-failure.js'),
  ]);
  const stop = await listenForStop();
  const sim = await startSimulator(input).catch((error: unknown) => {
    stop.dispose();
    throw listenFailure(error, 'simulate', o.host, o.port);
  });
  process.stdout.write(
    `simulator listening on ${sim.url} (simulated time ${sim.clock.now().toISOString()})\n` +
      'keys: sim-key (all areas), sim-streaming-key (hooks and schemas only), sim-influencers-key (influencer endpoints only)\n' +
      'serves: /v3/accounts/me/partner/workspaces, /v3/influencers/{tags,campaigns}, /v3/influencers/campaigns/{id}[/posts|/influencers],\n' +
      '        /v3/hooks[/{id}], /v3/schemas/{social,editorial,broadcast}_streaming.json, /v3/searches; introspection: /__sim/stats\n' +
      `try:    CW_BASE_URL=${sim.url} CW_API_KEY=sim-key campaign-warehouse sync\n`,
  );
  if (sim.ca) process.stdout.write(`TLS certificate (save as a file and point CW_CA_FILE at it):\n${sim.ca}`);
  await stop.requested;
  await sim.close();
  stop.dispose();
}

/** The flags as the simulator's input; a bad combination is a UserError naming the flags. */
function simulatorInput(o: SimulateFlags): SimulatorInput {
  const startTime = o.startTime === undefined ? undefined : new Date(o.startTime);
  if (startTime && Number.isNaN(startTime.getTime())) {
    throw new UserError(`--start-time: "${o.startTime}" is not an ISO-8601 time`);
  }
  if (o.burst !== undefined && o.rps === undefined) throw new UserError('--burst needs --rps');
  if (o.quietLimit && o.rps === undefined) throw new UserError('--quiet-limit needs --rps');
  return {
    host: o.host,
    port: o.port,
    seed: o.seed,
    size: {
      workspaces: o.workspaces,
      tagsPerWorkspace: o.tagsPerWorkspace,
      campaigns: o.campaigns,
      postsPerCampaign: o.postsPerCampaign,
      influencersPerCampaign: o.influencersPerCampaign,
    },
    ...(o.rps
      ? {
          rateLimit: { rps: o.rps, burst: o.burst ?? Math.max(1, Math.ceil(o.rps)), announce: !o.quietLimit },
        }
      : {}),
    retryAfterFormat: o.retryAfterFormat,
    faults: {
      overloadRate: o.overloadRate,
      overloadRetryAfterMs: o.overloadRetryAfter,
      error500Rate: o.fault500,
      error503Rate: o.fault503,
      resetRate: o.faultReset,
      slowRate: o.faultSlow,
      slowMs: o.slowMs,
      truncateRate: o.faultTruncate,
      invalidJsonRate: o.faultInvalidJson,
    },
    drift: Boolean(o.drift),
    ...(o.inconsistent ? { inconsistent: o.inconsistent } : {}),
    history: { live: Boolean(o.history), changes: o.change ?? [] },
    tls: Boolean(o.tls),
    ...(startTime ? { startTime } : {}),
    hooks: { deliveriesPerSecond: o.deliveriesPerSecond },
  };
}

interface SimulateFlags {
  host: string;
  port: number;
  seed: number;
  workspaces: number;
  tagsPerWorkspace: number;
  campaigns: number;
  postsPerCampaign: number;
  influencersPerCampaign: number;
  rps?: number;
  burst?: number;
  quietLimit?: boolean;
  retryAfterFormat: 'iso' | 'http-date' | 'epoch' | 'delta';
  overloadRate: number;
  overloadRetryAfter: [number, number];
  fault500: number;
  fault503: number;
  faultReset: number;
  faultSlow: number;
  slowMs: number;
  faultTruncate: number;
  faultInvalidJson: number;
  drift?: boolean;
  inconsistent?: Inconsistency[];
  history?: boolean;
  change?: InjectedChange[];
  tls?: boolean;
  startTime?: string;
  deliveriesPerSecond: number;
}
