/**
 * Child processes for benchmarks: the simulator and the CLI run apart from the measuring
 * process, so their CPU and memory do not mix with it (2 cores: simulator, sync).
 */

import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BUILT_CLI, cliNodeFlags } from '../src/util/built-cli.js';
import { packageRoot } from '../src/util/package-root.js';
import { prefixed } from './busy-cores.js';

const REPORT_RSS = join(packageRoot(), 'bench', 'report-rss.mjs');

/** Temp directories removed when the benchmark's process exits. */
const removeAtExit: string[] = [];
process.once('exit', () => {
  for (const path of removeAtExit) rmSync(path, { recursive: true, force: true });
});

/**
 * A new temp directory for a benchmark's data, removed when the process exits (a checks run
 * left 1.3 GB behind each time), unless `keep` (the history bench's --keep: it says where).
 */
export function tempDir(prefix: string, keep = false): string {
  const dir = mkdtempSync(join(tmpdir(), `cw-bench-${prefix}-`));
  if (!keep) removeAtExit.push(dir);
  return dir;
}

/**
 * Starts `campaign-warehouse simulate` on a free loopback port; resolves with its URL. `prefix`
 * runs it behind a command (busy-cores.ts: a core of its own, real-time priority).
 */
export async function startSimulatorProcess(
  args: string[],
  prefix: readonly string[] = [],
): Promise<{ url: string; child: ChildProcess; stop(): Promise<void> }> {
  const command = [process.execPath, ...cliNodeFlags(), BUILT_CLI, 'simulate', '--port', '0', ...args];
  const child = spawn(...prefixed(prefix, command[0]!, command.slice(1)), {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /listening on (\S+)/.exec(out);
      if (match) resolve(match[1]!);
    });
    child.once('exit', (code) => reject(new Error(`simulator exited with ${code}`)));
  });
  return {
    url,
    child,
    stop: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

export interface CliRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly wallMs: number;
  readonly maxRssMb: number;
}

/** How a CLI process is launched beyond its arguments: behind a command, with more Node flags. */
export interface Launch {
  /** busy-cores.ts: e.g. a core of its own. */
  readonly prefix?: readonly string[];
  /** Before the script, e.g. --import of a preloaded module. */
  readonly nodeFlags?: readonly string[];
}

/** Runs the CLI as a user does, reporting its wall time and peak RSS. */
export function runCli(args: string[], env: NodeJS.ProcessEnv, launch: Launch = {}): Promise<CliRun> {
  const started = performance.now();
  const node = [...cliNodeFlags(), ...(launch.nodeFlags ?? []), '--import', REPORT_RSS, BUILT_CLI, ...args];
  const child = spawn(...prefixed(launch.prefix ?? [], process.execPath, node), {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => {
    stdout += c.toString();
  });
  child.stderr.on('data', (c: Buffer) => {
    stderr += c.toString();
  });
  return new Promise((resolve) => {
    child.once('exit', (code) => {
      const rss = /BENCH_MAX_RSS_KB (\d+)/.exec(stderr);
      resolve({
        code,
        stdout,
        stderr,
        wallMs: performance.now() - started,
        maxRssMb: rss ? Number(rss[1]) / 1024 : Number.NaN,
      });
    });
  });
}

export interface SyncRunSummary {
  requests: number;
  throttled: number;
  /** Pauses asked by 429s and RateLimit headers, ms: overload apart from rate limit. */
  overloadWaitMs: number;
  rateLimitWaitMs: number;
  durationMs: number;
  rowsByTable: Record<string, number>;
}

/**
 * `campaign-warehouse sync` against a simulator process, as a user runs it, into `dataDir`
 * (a new temp directory by default), with `extraArgs` (e.g. --snapshot-date), launched as
 * `launch` says; fails loudly.
 */
export async function runSyncCli(
  url: string,
  rps: number,
  dataDir = tempDir('sync'),
  extraArgs: readonly string[] = [],
  launch: Launch = {},
): Promise<{ run: CliRun; summary: SyncRunSummary }> {
  const run = await runCli(
    [
      'sync',
      '--base-url',
      url,
      '--data-dir',
      dataDir,
      '--rps',
      String(rps),
      '--concurrency',
      '8',
      '--force',
      '--json',
      ...extraArgs,
    ],
    { CW_API_KEY: 'sim-key', CW_LOG_LEVEL: 'warn' },
    launch,
  );
  if (run.code !== 0) throw new Error(`sync failed (${run.code}): ${run.stderr.slice(-500)}`);
  return { run, summary: JSON.parse(run.stdout.trim().split('\n').pop()!) as SyncRunSummary };
}

/** Prints a two-column table and, last, one JSON line of the figures. */
export function report(title: string, figures: Record<string, number | string | boolean>): void {
  process.stdout.write(`\n${title}\n`);
  const width = Math.max(...Object.keys(figures).map((k) => k.length));
  for (const [key, value] of Object.entries(figures))
    process.stdout.write(`  ${key.padEnd(width)}  ${value}\n`);
  process.stdout.write(`${JSON.stringify(figures)}\n`);
}

/** `--name <value>`'s text, or undefined when absent. */
export function flagValue(args: readonly string[], name: string): string | undefined {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
}

export function flag(args: readonly string[], name: string, fallback: number): number {
  const value = flagValue(args, name);
  return value !== undefined ? Number(value) : fallback;
}
