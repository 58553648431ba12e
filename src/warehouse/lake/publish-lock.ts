import { withFileLock } from '../../state/with-file-lock.js';
import { publishLockPath } from '../duckdb/warehouse-paths.js';

/**
 * How long a publisher waits for the lock before giving up. A sync publish of a large account
 * (a million posts) or the conversion of a previous release's warehouse can take minutes;
 * waiting longer than this means something is wrong and the caller should report it rather
 * than hang.
 */
export const PUBLISH_LOCK_TIMEOUT_MS = 15 * 60_000;

/**
 * Runs `work` holding the cross-process publish lock (withFileLock on <dataDir>/.publish.lock).
 */
export function withPublishLock<T>(
  dataDir: string,
  work: () => Promise<T>,
  timeoutMs = PUBLISH_LOCK_TIMEOUT_MS,
): Promise<T> {
  return withFileLock(publishLockPath(dataDir), work, { timeoutMs, what: 'warehouse: publish lock' });
}
