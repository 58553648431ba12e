import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type DuckDBConnection, listValue } from '@duckdb/node-api';
import { packageRoot } from '../../util/package-root.js';

/** One migration file, sql/warehouse/migrations/NNN_name.sql. */
export interface Migration {
  readonly version: number;
  readonly name: string;
  readonly sql: string;
}

const MIGRATION_FILE = /^(\d+)_(.+)\.sql$/;

/** The migrations of each folder read so far: the shipped ones never change within a process. */
const listed = new Map<string, Migration[]>();

/** The shipped migrations, in version order. */
export function listMigrations(
  dir = join(packageRoot(), 'sql', 'warehouse', 'migrations'),
): readonly Migration[] {
  let migrations = listed.get(dir);
  if (!migrations) {
    migrations = readdirSync(dir)
      .map((file) => ({ file, match: MIGRATION_FILE.exec(file) }))
      .filter((entry): entry is { file: string; match: RegExpExecArray } => entry.match !== null)
      .map(({ file, match }) => ({
        version: Number(match[1]),
        name: match[2]!,
        sql: readFileSync(join(dir, file), 'utf8'),
      }))
      .sort((a, b) => a.version - b.version);
    listed.set(dir, migrations);
  }
  return migrations;
}

/**
 * Applies the migrations not yet recorded in `schema_migrations`, all in one transaction with
 * their records, so an existing warehouse upgrades in place and keeps its rows, or stays as it
 * was when one fails (one transaction instead of one each: a new staging file or publish
 * session applies them all, and a commit per migration cost more than the migrations).
 * `upTo` stops at a version (tests build old warehouses with it).
 * Returns the versions applied.
 */
export async function applyMigrations(
  connection: DuckDBConnection,
  options: { upTo?: number; migrations?: readonly Migration[] } = {},
): Promise<number[]> {
  await connection.run(
    'create table if not exists schema_migrations (version integer not null, name varchar not null, applied_at timestamp not null)',
  );
  const reader = await connection.runAndReadAll('select version from schema_migrations');
  const applied = new Set(reader.getRows().map((row) => Number(row[0])));
  const pending = (options.migrations ?? listMigrations()).filter(
    (migration) =>
      !applied.has(migration.version) && (options.upTo === undefined || migration.version <= options.upTo),
  );
  if (pending.length === 0) return [];
  await connection.run('begin transaction');
  let step = '';
  try {
    for (const migration of pending) {
      step = `migration ${migration.version}_${migration.name}`;
      await connection.run(migration.sql);
    }
    step = 'migrations: recording them';
    // The time is bound from JS: DuckDB's now() follows the session's time zone.
    await connection.run(
      'insert into schema_migrations select unnest($1::integer[]), unnest($2::varchar[]), $3::timestamp',
      [
        listValue(pending.map((migration) => migration.version)),
        listValue(pending.map((migration) => migration.name)),
        new Date().toISOString().replace('Z', ''),
      ],
    );
    await connection.run('commit');
  } catch (error) {
    await connection.run('rollback');
    throw new Error(`warehouse ${step} failed`, { cause: error });
  }
  return pending.map((migration) => migration.version);
}
