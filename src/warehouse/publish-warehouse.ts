import { constants, existsSync, readdirSync, rmSync } from 'node:fs';
import { copyFile, open, rename } from 'node:fs/promises';
import { join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { applyMigrations } from './apply-migrations.js';
import { createViews } from './create-views.js';
import { isOutOfMemory, openWriter, PUBLISH_RETRY_MEMORY, PUBLISH_SETTINGS } from './open-database.js';
import { withPublishLock } from './publish-lock.js';
import { PUBLISH_TEMP_PREFIX, publishedPath } from './warehouse-paths.js';

/** Test hook: called between the work and the rename; throwing there aborts the publish. */
export type BeforeRename = (tempPath: string) => void | Promise<void>;

/**
 * The one way the published file changes. Under the publish lock: copy warehouse.duckdb
 * (if any) to a temporary file beside it (a reflink where the filesystem can), open it,
 * apply pending migrations, run `work` inside ONE transaction, re-create the views,
 * CHECKPOINT, close, fsync, rename over warehouse.duckdb and fsync the folder.
 * Readers holding the old file keep reading their snapshot (the rename only changes
 * which inode the name points at); a reader opening meanwhile gets the old or the new
 * file, complete. On any failure the temporary file is deleted and the published file is
 * untouched. A publish that runs out of DuckDB memory is retried once with a larger limit.
 */
export async function publishWarehouse<T>(
  dataDir: string,
  work: (connection: DuckDBConnection) => Promise<T>,
  options: { beforeRename?: BeforeRename } = {},
): Promise<T> {
  return withPublishLock(dataDir, async () => {
    removeLeftovers(dataDir);
    try {
      return await publishOnce(dataDir, work, PUBLISH_SETTINGS, options);
    } catch (error) {
      if (!isOutOfMemory(error)) throw error;
      // Nothing was published; the work runs again on a fresh copy with room to spare.
      return publishOnce(dataDir, work, { ...PUBLISH_SETTINGS, memory_limit: PUBLISH_RETRY_MEMORY }, options);
    }
  });
}

async function publishOnce<T>(
  dataDir: string,
  work: (connection: DuckDBConnection) => Promise<T>,
  settings: Readonly<Record<string, string>>,
  options: { beforeRename?: BeforeRename },
): Promise<T> {
  const target = publishedPath(dataDir);
  const temp = join(dataDir, `${PUBLISH_TEMP_PREFIX}${process.pid}-${Date.now()}.duckdb`);
  try {
    // Off the event loop (the sink keeps serving meanwhile); a reflink where the filesystem can.
    if (existsSync(target)) await copyFile(target, temp, constants.COPYFILE_FICLONE);
    const db = await openWriter(temp, settings);
    let result: T;
    try {
      const { connection } = db;
      await applyMigrations(connection);
      await connection.run('begin transaction');
      try {
        result = await work(connection);
        await connection.run('commit');
      } catch (error) {
        await connection.run('rollback').catch(() => undefined);
        throw error;
      }
      await createViews(connection);
      await connection.run('checkpoint');
    } finally {
      db.close();
    }
    await options.beforeRename?.(temp);
    await fsyncPath(temp, 'r+');
    await rename(temp, target);
    await fsyncPath(dataDir, 'r');
    return result;
  } finally {
    removeTemp(temp);
  }
}

async function fsyncPath(path: string, flags: string): Promise<void> {
  const handle = await open(path, flags);
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** The temporary file, its WAL and DuckDB's spill folder beside it. */
function removeTemp(temp: string): void {
  for (const path of [temp, `${temp}.wal`, `${temp}.tmp`]) rmSync(path, { recursive: true, force: true });
}

/** Temporary files of a publisher that was killed: nobody else publishes while we hold the lock. */
function removeLeftovers(dataDir: string): void {
  for (const file of readdirSync(dataDir)) {
    if (file.startsWith(PUBLISH_TEMP_PREFIX)) rmSync(join(dataDir, file), { recursive: true, force: true });
  }
}
