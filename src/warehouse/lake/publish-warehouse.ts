import { isOutOfMemory, PUBLISH_RETRY_MEMORY, PUBLISH_SETTINGS } from '../duckdb/open-database.js';
import { runAfterPublish } from './after-publish.js';
import { ensureLake } from './catalog/ensure-lake.js';
import { openLakeSession } from './core/open-lake-session.js';
import { healBrokenJson } from './heal-broken-json.js';
import type { LakeTransaction } from './lake-transaction.js';
import { withPublishLock } from './publish-lock.js';

/** Test hook: called between the work and the link swaps; throwing there aborts the publish. */
export type BeforeRename = (lake: string) => void | Promise<void>;

export interface PublishOptions<T> {
  readonly beforeRename?: BeforeRename;
  /** After the work and beforeRename, before the swaps (the stream's exactly-once set records its parts). */
  readonly beforeCommit?: (result: T) => void | Promise<void>;
  /** After the swaps. */
  readonly afterCommit?: (result: T) => void | Promise<void>;
}

/**
 * The one way the lake changes. Under the publish lock: brings the lake and its catalog
 * (warehouse.duckdb) up to date (a first run converts a warehouse of the previous release, a
 * moved data directory or a new migration rewrites the catalog), opens a DuckDB work session,
 * runs `work`, which writes new version directories through the transaction, then swaps
 * their links (LakeTransaction.commit). warehouse.duckdb itself is not rewritten: its views
 * read the lake, so readers, including connections held open, see the new files at their
 * next query. On any failure nothing is swapped and what `work` wrote is removed. A publish
 * that runs out of DuckDB memory is retried once with a larger limit.
 */
export async function publishWarehouse<T>(
  dataDir: string,
  work: (tx: LakeTransaction) => Promise<T>,
  options: PublishOptions<T> = {},
): Promise<T> {
  const published = await withPublishLock(dataDir, async () => {
    // A new lake's catalog is written after its first publish: a failed first publish leaves
    // no warehouse.duckdb behind.
    const { finish } = await ensureLake(dataDir, { deferCreate: true });
    // A lake written before text was made well formed: its unreadable JSON repaired, once.
    await healBrokenJson(dataDir);
    let result: T;
    try {
      result = await publishOnce(dataDir, work, PUBLISH_SETTINGS, options);
    } catch (error) {
      if (!isOutOfMemory(error)) throw error;
      // Nothing was published; the work runs again in a fresh session with room to spare.
      result = await publishOnce(
        dataDir,
        work,
        { ...PUBLISH_SETTINGS, memory_limit: PUBLISH_RETRY_MEMORY },
        options,
      );
    }
    await finish?.();
    return result;
  });
  // The remote lake (src/remote/), after the lock: a slow object store never holds up the next publish.
  await runAfterPublish(dataDir);
  return published;
}

async function publishOnce<T>(
  dataDir: string,
  work: (tx: LakeTransaction) => Promise<T>,
  settings: Readonly<Record<string, string>>,
  options: PublishOptions<T>,
): Promise<T> {
  const session = await openLakeSession(dataDir, settings);
  const { tx } = session;
  try {
    const result = await work(tx);
    await options.beforeRename?.(tx.lake);
    await options.beforeCommit?.(result);
    await tx.commit();
    await options.afterCommit?.(result);
    return result;
  } finally {
    tx.abort();
    await session.close();
  }
}
