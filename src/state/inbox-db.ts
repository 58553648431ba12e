import { join } from 'node:path';
import * as schema from './inbox-schema.js';
import { type OpenedSqlite, openSqlite } from './open-sqlite.js';

export type InboxDb = OpenedSqlite<typeof schema>;

export const INBOX_DB_FILE = 'inbox.sqlite';

/** <dataDir>/inbox.sqlite: the sink's durable push inbox (see inbox-schema.ts). */
export function openInboxDb(dataDir: string): InboxDb {
  return openSqlite(join(dataDir, INBOX_DB_FILE), schema, 'inbox');
}
