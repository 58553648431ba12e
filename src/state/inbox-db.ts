import { join } from 'node:path';
import * as schema from './inbox-schema.js';
import { type OpenedSqlite, openSqlite, openSqliteReadOnly, type ReadOnlySqlite } from './open-sqlite.js';

export type InboxDb = OpenedSqlite<typeof schema>;

export const INBOX_DB_FILE = 'inbox.sqlite';

/**
 * Page size of a new inbox. Each delivery is a ~2 KB blob appended in group commits: 16 KB
 * pages take much less CPU per delivery than SQLite's default 4 KB (fewer WAL frames, write
 * calls and checkpoint copies per commit; figures: bench/RESULTS.md, "Figures moved out of
 * code comments").
 */
export const INBOX_PAGE_SIZE = 16_384;

/**
 * SQL for the loader's watermark (inbox-schema.ts loaderProgress): the last delivery_id in the
 * published warehouse, 0 before the first publish. Later deliveries are the backlog.
 */
export const LOADED_THROUGH_SQL = 'coalesce((select loaded_through from loader_progress where id = 1), 0)';

/** <dataDir>/inbox.sqlite: the sink's durable push inbox (see inbox-schema.ts). */
export function openInboxDb(dataDir: string): InboxDb {
  return openSqlite(join(dataDir, INBOX_DB_FILE), schema, 'inbox', { pageSize: INBOX_PAGE_SIZE });
}

/** <dataDir>/inbox.sqlite read-only, never migrated (see openSqliteReadOnly); undefined when absent. */
export function openInboxDbReadOnly(dataDir: string): ReadOnlySqlite<typeof schema> | undefined {
  return openSqliteReadOnly(join(dataDir, INBOX_DB_FILE), schema, 'inbox');
}
