import { mkdirSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { Database } from '../../state/sqlite-database.js';
import { publishLockPath } from '../duckdb/warehouse-paths.js';

/** How often a waiting publisher retries the lock: short next to the shortest publish. */
export const PUBLISH_LOCK_POLL_MS = 25;

/**
 * How long a publisher waits for the lock before giving up. A sync publish of a large account
 * (a million posts) or the conversion of a previous release's warehouse can take minutes;
 * waiting longer than this means something is wrong and the caller should report it rather
 * than hang.
 */
export const PUBLISH_LOCK_TIMEOUT_MS = 15 * 60_000;

/**
 * Runs `work` holding the cross-process publish lock: an exclusive SQLite transaction on
 * <dataDir>/.publish.lock. SQLite's lock is an OS file lock, so a killed holder cannot keep
 * it; waiting polls with busy_timeout 0, so the event loop is never blocked. SQLite also
 * serializes two connections of the same process, so concurrent async publishes queue too.
 */
export async function withPublishLock<T>(
  dataDir: string,
  work: () => Promise<T>,
  timeoutMs = PUBLISH_LOCK_TIMEOUT_MS,
): Promise<T> {
  mkdirSync(dataDir, { recursive: true });
  const db = new Database(publishLockPath(dataDir), { timeout: 0 });
  try {
    db.pragma('busy_timeout = 0');
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      try {
        db.exec('begin exclusive');
        break;
      } catch (error) {
        if ((error as { code?: string }).code !== 'SQLITE_BUSY') throw error;
        if (Date.now() > deadline)
          throw new Error(
            `warehouse: publish lock ${publishLockPath(dataDir)} still held after ${timeoutMs} ms`,
          );
        await sleep(PUBLISH_LOCK_POLL_MS);
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
