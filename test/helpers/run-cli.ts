/** Runs the built CLI (see ensureBuiltCli) as a user would: a child process, its own environment. */
import { execFile } from 'node:child_process';
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
  // Only what the test sets: a CW_* variable of the developer's shell must not leak in.
  const clean = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('CW_')));
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

/** The non-blank lines of an output. */
export function lines(text: string): string[] {
  return text.split(/\r?\n/).filter((line) => line.trim() !== '');
}
