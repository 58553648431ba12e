/**
 * `npm run bench -- cli-start [rounds]`: what a start of the CLI costs, bundled (dist/cli/, what
 * users run) against tsc's output of the same code (dist/src/cli/main.js): CPU (user + system,
 * counted by bash's `times` over the CLI's own processes) and wall time per start, for `--help`,
 * `status` and `query` on a one-night warehouse, and a small `sync` into a new data directory.
 * The two builds alternate within each round, so a busy moment weighs on both alike.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { BUILT_CLI, cliNodeFlags } from '../src/util/built-cli.js';
import { packageRoot } from '../src/util/package-root.js';
import { startSimulatorProcess, tempDir } from './bench-processes.js';

const BUILDS = { bundled: BUILT_CLI, tsc: join(packageRoot(), 'dist', 'src', 'cli', 'main.js') };
type Build = keyof typeof BUILDS;

/** Starts per command and build in each round. */
const STARTS = 3;

/** A small account: the sync's steps are short, so its start weighs as it does in a test. */
const SIMULATOR_ARGS = ['--campaigns', '3', '--posts-per-campaign', '10', '--influencers-per-campaign', '4'];

/**
 * Runs the CLI STARTS times in a row under bash and returns bash's count of its children's
 * CPU, and the wall time per start. `freshDataDir`: each start gets a new CW_DATA_DIR (a first sync).
 */
function measure(cli: string, args: string[], freshDataDir: boolean, env: NodeJS.ProcessEnv) {
  const setUp = freshDataDir ? 'export CW_DATA_DIR=$(mktemp -d -p "$CW_BENCH_DIRS")' : ':';
  const script = `for i in $(seq ${STARTS}); do (${setUp}; "$@" >/dev/null 2>&1) || exit 1; done; times`;
  const command = [process.execPath, ...cliNodeFlags(), cli, ...args];
  const started = performance.now();
  const out = execFileSync('bash', ['-c', script, 'bash', ...command], { env }).toString();
  const wallMs = (performance.now() - started) / STARTS;
  // `times`: the shell's own user and system time, then its children's ("0m1.234s 0m0.567s").
  const children = out.trim().split('\n').at(-1) ?? '';
  const seconds = [...children.matchAll(/(\d+)m([\d.]+)s/g)].reduce(
    (sum, [, minutes, secs]) => sum + Number(minutes) * 60 + Number(secs),
    0,
  );
  return { cpuMs: (seconds * 1000) / STARTS, wallMs };
}

export async function runCliStartBench(args: string[]): Promise<Record<string, number | string | boolean>> {
  const rounds = Number(args[0] ?? 5);
  if (!Number.isInteger(rounds) || rounds < 1)
    throw new Error(`cli-start: rounds must be a whole number >= 1`);
  const sim = await startSimulatorProcess(SIMULATOR_ARGS);
  try {
    const home = tempDir('cli-start');
    // Each command picks DuckDB's allocator setting itself, as a user's start does (run.ts set
    // the sync's for this process).
    const { DUCKDB_JE_MALLOC_CONF: _, ...inherited } = process.env;
    const env = { ...inherited, CW_API_KEY: 'sim-key', CW_LOG_LEVEL: 'warn', CW_BENCH_DIRS: home };
    const sync = ['sync', '--base-url', sim.url, '--force', '--rps', '200'];
    const warehouse = join(home, 'one-night');
    execFileSync(process.execPath, [BUILT_CLI, ...sync, '--data-dir', warehouse], { env });
    const commands: Record<string, string[]> = {
      help: ['--help'],
      status: ['status', '--data-dir', warehouse],
      query: ['query', '--data-dir', warehouse, 'select count(*) from posts'],
      sync,
    };
    const totals: Record<string, { cpuMs: number; wallMs: number }> = {};
    for (let round = 0; round < rounds; round++) {
      for (const [command, commandArgs] of Object.entries(commands)) {
        for (const build of Object.keys(BUILDS) as Build[]) {
          const { cpuMs, wallMs } = measure(BUILDS[build], commandArgs, command === 'sync', env);
          const key = `${command}_${build}`;
          const total = totals[key] ?? { cpuMs: 0, wallMs: 0 };
          total.cpuMs += cpuMs / rounds;
          total.wallMs += wallMs / rounds;
          totals[key] = total;
        }
      }
      process.stderr.write(`cli-start: round ${round + 1} of ${rounds}\n`);
    }
    const figures: Record<string, number> = {};
    process.stdout.write('command   build     CPU/start  wall/start\n');
    for (const [key, { cpuMs, wallMs }] of Object.entries(totals)) {
      const [command, build] = key.split('_') as [string, string];
      process.stdout.write(
        `${command.padEnd(9)} ${build.padEnd(9)} ${cpuMs.toFixed(0).padStart(6)} ms ${wallMs.toFixed(0).padStart(8)} ms\n`,
      );
      figures[`${key}_cpu_ms`] = Math.round(cpuMs);
      figures[`${key}_wall_ms`] = Math.round(wallMs);
    }
    for (const command of Object.keys(commands)) {
      const ratio = (totals[`${command}_bundled`]?.cpuMs ?? 0) / (totals[`${command}_tsc`]?.cpuMs ?? 1);
      figures[`${command}_cpu_bundled_over_tsc`] = Math.round(ratio * 100) / 100;
    }
    const all = { rounds, starts_per_round: STARTS, ...figures };
    process.stdout.write(`${JSON.stringify(all)}\n`);
    return all;
  } finally {
    await sim.stop();
  }
}
