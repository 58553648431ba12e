/**
 * A busy machine, made on purpose (the sync bench's `strict-loaded` scenario and
 * test/integration/api-throttle-loaded.test.ts): busy processes and a busy worker thread on
 * the client's core, the server apart on the other core at real-time priority, so what the
 * server's bucket sees is the client's doing, not the server's own stalls. Every busy loop
 * ends by itself after `maxMs` should its owner die without stopping it.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';

/** The server's core and the client's, when there are two to keep apart. */
export const SERVER_CORE = 0;
export const CLIENT_CORE = 1;

const BUSY_LOOP = (maxMs: number) => `const end = Date.now() + ${maxMs}; while (Date.now() < end) {}`;

function runs(command: string, args: readonly string[]): boolean {
  try {
    execFileSync(command, args, { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** The command prefix running a process on `core` (taskset), or none on one core or without taskset. */
export function onCore(core: number): string[] {
  if (availableParallelism() < 2 || !runs('taskset', ['-c', String(core), 'true'])) return [];
  return ['taskset', '-c', String(core)];
}

/**
 * The command prefix running a process at real-time priority (chrt -f, which needs root or
 * CAP_SYS_NICE) so that no other process delays it, or none when not allowed.
 */
export function realTime(): string[] {
  return runs('chrt', ['-f', '10', 'true']) ? ['chrt', '-f', '10'] : [];
}

/** `command args` behind `prefix` (e.g. onCore, realTime), as spawn's file and arguments. */
export function prefixed(
  prefix: readonly string[],
  command: string,
  args: readonly string[],
): [string, string[]] {
  const [first, ...rest] = [...prefix, command, ...args];
  return [first!, rest];
}

/** `count` node processes spinning on `core` (any core without taskset) for at most `maxMs`. */
export function busyProcesses(count: number, core: number, maxMs: number): { stop(): Promise<void> } {
  const children: ChildProcess[] = Array.from({ length: count }, () =>
    spawn(...prefixed(onCore(core), process.execPath, ['-e', BUSY_LOOP(maxMs)]), { stdio: 'ignore' }),
  );
  return {
    stop: async () => {
      await Promise.all(
        children.map(
          (child) =>
            new Promise<void>((resolve) => {
              if (child.exitCode !== null || child.signalCode !== null) return resolve();
              child.once('exit', () => resolve());
              child.kill('SIGKILL');
            }),
        ),
      );
    },
  };
}

/** A worker thread of this process spinning for at most `maxMs`; `terminate()` stops it. */
export function busyThread(maxMs: number): Worker {
  const worker = new Worker(BUSY_LOOP(maxMs), { eval: true });
  worker.unref();
  return worker;
}

/**
 * Pins every thread of this process to `core` (taskset -a -p), when there are two cores and
 * taskset; returns what restores the former affinity.
 */
export function pinThisProcess(core: number): () => void {
  if (onCore(core).length === 0) return () => {};
  const pid = String(process.pid);
  const before = /: (\S+)\s*$/.exec(execFileSync('taskset', ['-p', pid], { encoding: 'utf8' }))?.[1];
  execFileSync('taskset', ['-a', '-p', '-c', String(core), pid], { stdio: 'ignore' });
  return () => {
    if (before) execFileSync('taskset', ['-a', '-p', before, pid], { stdio: 'ignore' });
  };
}
