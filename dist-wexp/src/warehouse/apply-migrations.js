import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../util/package-root.js';
const MIGRATION_FILE = /^(\d+)_(.+)\.sql$/;
/** The shipped migrations, in version order. */
export function listMigrations(dir = join(packageRoot(), 'sql', 'warehouse', 'migrations')) {
    return readdirSync(dir)
        .map((file) => ({ file, match: MIGRATION_FILE.exec(file) }))
        .filter((entry) => entry.match !== null)
        .map(({ file, match }) => ({
        version: Number(match[1]),
        name: match[2],
        sql: readFileSync(join(dir, file), 'utf8'),
    }))
        .sort((a, b) => a.version - b.version);
}
/**
 * Applies the migrations not yet recorded in `schema_migrations`, each in its own
 * transaction with its record, so an existing warehouse upgrades in place and keeps its
 * rows. `upTo` stops at a version (tests build old warehouses with it).
 * Returns the versions applied.
 */
export async function applyMigrations(connection, options = {}) {
    await connection.run('create table if not exists schema_migrations (version integer not null, name varchar not null, applied_at timestamp not null)');
    const reader = await connection.runAndReadAll('select version from schema_migrations');
    const applied = new Set(reader.getRows().map((row) => Number(row[0])));
    const done = [];
    for (const migration of options.migrations ?? listMigrations()) {
        if (applied.has(migration.version))
            continue;
        if (options.upTo !== undefined && migration.version > options.upTo)
            break;
        await connection.run('begin transaction');
        try {
            await connection.run(migration.sql);
            // The time is bound from JS: DuckDB's now() follows the session's time zone.
            await connection.run('insert into schema_migrations values ($1, $2, $3::timestamp)', [
                migration.version,
                migration.name,
                new Date().toISOString().replace('Z', ''),
            ]);
            await connection.run('commit');
        }
        catch (error) {
            await connection.run('rollback');
            throw new Error(`warehouse migration ${migration.version}_${migration.name} failed`, { cause: error });
        }
        done.push(migration.version);
    }
    return done;
}
