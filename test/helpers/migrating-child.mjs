// Child of state-upgrade.test.ts: another process upgrading a SQLite file. It applies the
// pending migrations of <folder> the way drizzle records them, inside a write transaction it
// holds for <holdMs> after printing "migrating", then commits.
// Usage: node migrating-child.mjs <file> <migrationsFolder> <holdMs>

import { readMigrationFiles } from 'drizzle-orm/migrator';
import { Database } from '../../dist/src/state/sqlite-database.js';

const [file, migrationsFolder, holdMs] = process.argv.slice(2);
const sqlite = new Database(file);
sqlite.pragma('busy_timeout = 5000');
const applied = sqlite.prepare('select max(created_at) as at from __drizzle_migrations').get().at;
sqlite.exec('begin immediate');
for (const migration of readMigrationFiles({ migrationsFolder })) {
  if (migration.folderMillis <= Number(applied)) continue;
  for (const statement of migration.sql) sqlite.exec(statement);
  sqlite
    .prepare('insert into __drizzle_migrations (hash, created_at) values (?, ?)')
    .run(migration.hash, migration.folderMillis);
}
process.stdout.write('migrating\n');
setTimeout(() => {
  sqlite.exec('commit');
  sqlite.close();
}, Number(holdMs));
