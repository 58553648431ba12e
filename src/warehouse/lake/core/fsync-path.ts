import { closeSync, fsyncSync, openSync } from 'node:fs';
import { open } from 'node:fs/promises';
import pLimit from 'p-limit';

/**
 * Paths fsyncsPaths keeps open at once: enough to keep the thread pool's fsyncs overlapping
 * (the file system then commits them together), few enough that a publish of thousands of
 * files never nears the process's limit of open files.
 */
export const FSYNC_CONCURRENCY = 32;

/** fsyncs a file or a directory (a directory's entries: new names, renamed links). */
export function fsyncPath(path: string): void {
  const fd = openSync(path, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * fsyncPath of every path, issued together off the event loop (fs.promises, at most
 * FSYNC_CONCURRENCY at once) instead of one after the other: resolves once every one of them
 * is durable; rejects with the first failure once none is still running.
 */
export async function fsyncPaths(paths: Iterable<string>): Promise<void> {
  const limit = pLimit(FSYNC_CONCURRENCY);
  const settled = await Promise.allSettled(
    [...paths].map((path) =>
      limit(async () => {
        const handle = await open(path, 'r');
        try {
          await handle.sync();
        } finally {
          await handle.close();
        }
      }),
    ),
  );
  const failed = settled.find((outcome) => outcome.status === 'rejected');
  if (failed) throw failed.reason;
}
