/**
 * `npm run bench -- <name> [args]`: runs one benchmark (or all, in order, with no name).
 * Each benchmark prints a table and, last, one JSON line of its figures.
 */
// First: the same DuckDB allocator settings as the CLI, so in-process figures (load) match it.
import '../src/warehouse/duckdb-allocator.js';

type Bench = (args: string[]) => Promise<Record<string, number | string | boolean>>;

const BENCHES: Record<string, { describe: string; load: () => Promise<Bench> }> = {
  load: {
    describe: 'normalize + load >= 1M rows with no network, vs read_json and row-by-row INSERT',
    load: async () => (await import('./load.js')).runLoadBench,
  },
  parse: {
    describe:
      "what parsing replies costs: JSON.parse vs the client's parseJsonExact (common pages, pages with a big integer)",
    load: async () => (await import('./parse.js')).runParseBench,
  },
  sync: {
    describe:
      'full syncs against the simulator (plain limit, overload 429s, an unannounced limit at half the rate, a strict burst-1 bucket): wall time vs the floor, 429 share, peak RSS',
    load: async () => (await import('./sync.js')).runSyncBench,
  },
  memory: {
    describe: 'peak RSS syncing N and 4N posts',
    load: async () => (await import('./memory.js')).runMemoryBench,
  },
  sink: {
    describe:
      'durable acknowledgements/s and latency of the sink vs a server making only its checks (and a bare one)',
    load: async () => (await import('./sink.js')).runSinkBench,
  },
  report: {
    describe: 'campaign-warehouse report on 180 days of a 170k-post account (target: under 10 s)',
    load: async () => (await import('./report.js')).runReportBench,
  },
  checks: {
    describe:
      'what the rule and history checks add to an unthrottled sync of 170k posts with 180 days of history (and at the default rate)',
    load: async () => (await import('./checks.js')).runChecksBench,
  },
  history: {
    describe:
      'analyst questions at 1,095 days of history vs 180 days and vs native tables (whole-history ones); publishes at 1,095 days vs 1 day',
    load: async () => (await import('./history.js')).runHistoryBench,
  },
  'stream-parts': {
    describe:
      "queries on today's pushed documents and a sink publish at 10 to 2,880 parts in today's partition, with and without intra-day merging",
    load: async () => (await import('./stream-parts.js')).runStreamPartsBench,
  },
  hostile: {
    describe:
      'the sink under hostile clients (1,000 forged 10 MiB bodies; 3,000 connections trickling headers) while a genuine sender delivers every 50 ms',
    load: async () => (await import('./hostile.js')).runHostileBench,
  },
  remote: {
    describe:
      'remote lake commits per nightly publish at 30 and 365 days of history (requests, bytes, time beside the local publish; target 1.25x)',
    load: async () => (await import('./remote.js')).runRemoteBench,
  },
  freshness: {
    describe: 'time from acknowledgement to visibility in the published warehouse',
    load: async () => (await import('./freshness.js')).runFreshnessBench,
  },
  'cli-start': {
    describe:
      "CPU and wall time of a CLI start (--help, status, query, a small first sync), bundled as users run it vs tsc's output",
    load: async () => (await import('./cli-start.js')).runCliStartBench,
  },
};

async function main(): Promise<void> {
  const [name, ...args] = process.argv.slice(2);
  if (name === '--help' || name === '-h') {
    for (const [key, bench] of Object.entries(BENCHES))
      process.stdout.write(`${key.padEnd(10)} ${bench.describe}\n`);
    return;
  }
  const names = name ? [name] : Object.keys(BENCHES);
  for (const key of names) {
    const bench = BENCHES[key];
    if (!bench) {
      process.stderr.write(`bench: unknown benchmark "${key}"; one of: ${Object.keys(BENCHES).join(', ')}\n`);
      process.exitCode = 2;
      return;
    }
    process.stdout.write(`\n== ${key}: ${bench.describe}\n`);
    const run = await bench.load();
    await run(args);
  }
}

await main();
