import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const HELPERS = dirname(fileURLToPath(import.meta.url));

/** A child `node` process running one of the plain-JS helpers beside this file. */
export interface Child {
  readonly process: ChildProcessWithoutNullStreams;
  /** The next stdout line. */
  nextLine(): Promise<string>;
  /** Resolves with the exit code. */
  exited: Promise<number | null>;
}

export function spawnHelper(script: string, args: string[]): Child {
  const child = spawn(process.execPath, [join(HELPERS, script), ...args], { stdio: 'pipe' });
  const lines: string[] = [];
  const waiters: ((line: string) => void)[] = [];
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  createInterface({ input: child.stdout }).on('line', (line) => {
    const waiter = waiters.shift();
    if (waiter) waiter(line);
    else lines.push(line);
  });
  const exited = new Promise<number | null>((resolve) => {
    child.on('exit', (code) => {
      if (code !== 0 && code !== null) process.stderr.write(`${script} exited ${code}: ${stderr}\n`);
      resolve(code);
    });
  });
  return {
    process: child,
    exited,
    nextLine: () => {
      const line = lines.shift();
      if (line !== undefined) return Promise.resolve(line);
      return new Promise((resolve, reject) => {
        waiters.push(resolve);
        void exited.then(() => reject(new Error(`${script} exited before printing: ${stderr}`)));
      });
    },
  };
}
