import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Database } from './sqlite-database.js';

/** How often a waiting holder retries a lock: short next to the shortest work it guards. */
export const FILE_LOCK_POLL_MS = 25;

/**
 * Runs `work` holding a cross-process lock: an exclusive SQLite transaction on the file `path`.
 * SQLite's lock is an OS file lock, so a killed holder cannot keep it; waiting polls with
 * busy_timeout 0, so the event loop is never blocked. SQLite also serializes two connections
 * of one process, so concurrent async holders queue too. After `timeoutMs` of waiting, throws
 * an Error saying `what` is still held.
 */
export async function withFileLock<T>(
  path: string,
  work: () => Promise<T>,
  { timeoutMs, what }: { timeoutMs: number; what: string },
): Promise<T> {
  mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path, { timeout: 0 });
  try {
    db.pragma('busy_timeout = 0');
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      try {
        db.exec('begin exclusive');
        break;
      } catch (error) {
        if ((error as { code?: string }).code !== 'SQLITE_BUSY') throw error;
        if (Date.now() > deadline) throw new Error(`${what} ${path} still held after ${timeoutMs} ms`);
        await sleep(FILE_LOCK_POLL_MS);
      }
    }
    try {
      return await work();
    } finally {
      db.exec('rollback');
    }
  } finally {
    db.close();
  }
}
