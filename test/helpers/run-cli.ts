/** Runs the built CLI (see ensureBuiltCli) as a user would: a child process, its own environment. */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { BUILT_CLI } from '../../src/util/built-cli.js';

export interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** `timeoutMs`: the child is killed after it (code 1); the demo's fourteen nights need more. */
export function run(
  args: string[],
  env: NodeJS.ProcessEnv = {},
  options: { cwd?: string; timeoutMs?: number } = {},
): Promise<Run> {
  const clean = cleanEnv();
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [BUILT_CLI, ...args],
      {
        env: { ...clean, CW_LOG_LEVEL: 'warn', ...env },
        timeout: options.timeoutMs ?? 60_000,
        ...(options.cwd ? { cwd: options.cwd } : {}),
      },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/**
 * `sync`'s pace against a simulator or stub on loopback, which takes any rate: at the default
 * 5 requests/s a small sync spends seconds waiting on its own throttle. The pacing itself is
 * tested against rate-limited simulators (test/integration/api-throttle-*.test.ts).
 */
export const LOOPBACK_RPS = ['--rps', '200'] as const;

/**
 * The arguments of a forced `sync` of `dataDir` from the simulator or stub at `baseUrl`, at
 * LOOPBACK_RPS, then `more`.
 */
export function loopbackSync(baseUrl: string, dataDir: string, ...more: string[]): string[] {
  return ['sync', '--base-url', baseUrl, '--data-dir', dataDir, '--force', ...LOOPBACK_RPS, ...more];
}

/** The non-blank lines of an output. */
export function lines(text: string): string[] {
  return text.split(/\r?\n/).filter((line) => line.trim() !== '');
}

/** A CLI child the test acts on while it runs (a signal): `run`'s environment, its output as it comes. */
export interface RunningCli {
  readonly process: ChildProcess;
  /** Resolves with the exit code (null when a signal ended it). */
  readonly exited: Promise<number | null>;
  stdout(): string;
  stderr(): string;
  /** Resolves with the first stderr line matching `pattern` (rejects if the child exits first). */
  stderrLine(pattern: RegExp): Promise<string>;
}

export function spawnCli(args: string[], env: NodeJS.ProcessEnv = {}): RunningCli {
  const child = spawn(process.execPath, [BUILT_CLI, ...args], {
    env: { ...cleanEnv(), CW_LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  const watchers: (() => void)[] = [];
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
    for (const watch of watchers) watch();
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    process: child,
    exited,
    stdout: () => stdout,
    stderr: () => stderr,
    stderrLine: (pattern) =>
      new Promise((resolve, reject) => {
        const watch = () => {
          const complete = stderr.slice(0, stderr.lastIndexOf('\n') + 1);
          const line = lines(complete).find((l) => pattern.test(l));
          if (line !== undefined) resolve(line);
        };
        watchers.push(watch);
        watch();
        exited.then((code) =>
          reject(new Error(`the CLI exited (${code}) before a line matching ${pattern}:\n${stderr}`)),
        );
      }),
  };
}

/** Only what the test sets: a CW_* variable of the developer's shell must not leak in. */
function cleanEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('CW_')));
}
