import { join } from 'node:path';
import { type OpenedSqlite, openSqlite } from './open-sqlite.js';
import * as schema from './schema.js';

export type StateDb = OpenedSqlite<typeof schema>;

export const STATE_DB_FILE = 'state.sqlite';

/** <dataDir>/state.sqlite: runs, checkpoints, hook registry (see schema.ts). */
export function openStateDb(dataDir: string): StateDb {
  return openSqlite(join(dataDir, STATE_DB_FILE), schema, 'state');
}
