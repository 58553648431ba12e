import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { drizzle, migrate } from '../../src/state/drizzle.js';
import { Database } from '../../src/state/sqlite-database.js';
import { tempDir } from './temp-dir.js';

/**
 * A SQLite file as the first release made it: only the `0000_init` migration of sql/<set>/
 * applied, by drizzle as the tool applies them (so later migrations are what an upgrade runs).
 */
export function firstReleaseDb(file: string, set: 'inbox' | 'state'): Database {
  const folder = tempDir(`cw-${set}-0000-`);
  cpSync(join('sql', set), folder, { recursive: true });
  const journalPath = join(folder, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as { entries: { tag: string }[] };
  journal.entries = journal.entries.filter((entry) => entry.tag === '0000_init');
  writeFileSync(journalPath, JSON.stringify(journal));
  const sqlite = new Database(file);
  sqlite.pragma('journal_mode = WAL');
  migrate(drizzle(sqlite), { migrationsFolder: folder });
  return sqlite;
}
