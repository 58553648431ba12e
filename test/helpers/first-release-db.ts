import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { drizzle, migrate } from '../../src/state/drizzle.js';
import { Database } from '../../src/state/sqlite-database.js';
import { tempDir } from './temp-dir.js';

/**
 * A SQLite file as the first release made it: only the `0000_init` migration of sql/<set>/
 * applied (or those through `lastTag`: a later release), by drizzle as the tool applies them
 * (so later migrations are what an upgrade runs).
 */
export function firstReleaseDb(file: string, set: 'inbox' | 'state', lastTag = '0000_init'): Database {
  const folder = tempDir(`cw-${set}-0000-`);
  cpSync(join('sql', set), folder, { recursive: true });
  const journalPath = join(folder, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as { entries: { tag: string }[] };
  const last = journal.entries.findIndex((entry) => entry.tag === lastTag);
  if (last < 0) throw new Error(`firstReleaseDb: no migration ${lastTag} in sql/${set}`);
  journal.entries = journal.entries.slice(0, last + 1);
  writeFileSync(journalPath, JSON.stringify(journal));
  const sqlite = new Database(file);
  sqlite.pragma('journal_mode = WAL');
  migrate(drizzle(sqlite), { migrationsFolder: folder });
  return sqlite;
}
