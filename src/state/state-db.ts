import { join } from 'node:path';
import { type OpenedSqlite, openSqlite, openSqliteReadOnly, type ReadOnlySqlite } from './open-sqlite.js';
import * as schema from './schema.js';

export type StateDb = OpenedSqlite<typeof schema>;

export const STATE_DB_FILE = 'state.sqlite';

/** <dataDir>/state.sqlite: runs, checkpoints, hook registry (see schema.ts). */
export function openStateDb(dataDir: string): StateDb {
  return openSqlite(join(dataDir, STATE_DB_FILE), schema, 'state');
}

/** <dataDir>/state.sqlite read-only, never migrated (see openSqliteReadOnly); undefined when absent. */
export function openStateDbReadOnly(dataDir: string): ReadOnlySqlite<typeof schema> | undefined {
  return openSqliteReadOnly(join(dataDir, STATE_DB_FILE), schema, 'state');
}
