import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { LATEST_FACTS } from '../../src/warehouse/duckdb/create-views.js';
import {
  applyMigrations,
  listViews,
  openDatabase,
  STREAM_PARTITION_COLUMN,
  TABLES,
  type TableSpec,
} from '../../src/warehouse/index.js';
import { tempDir } from '../helpers/temp-dir.js';

/** Each table of the migrations, applied to a real DuckDB file: its columns and their types. */
async function migratedColumns(): Promise<Map<string, Map<string, string>>> {
  const db = await openDatabase(join(tempDir('cw-registry-'), 'migrated.duckdb'));
  try {
    await applyMigrations(db.connection);
    const reader = await db.connection.runAndReadAll(
      `select table_name, column_name, data_type from duckdb_columns()
        where database_name = current_database() and schema_name = 'main' and table_name <> 'schema_migrations'
        order by table_name, column_index`,
    );
    const tables = new Map<string, Map<string, string>>();
    for (const [table, column, type] of reader.getRows()) {
      const columns = tables.get(String(table)) ?? new Map<string, string>();
      columns.set(String(column), String(type));
      tables.set(String(table), columns);
    }
    return tables;
  } finally {
    db.close();
  }
}

describe('the table registry (src/contracts/table-registry.ts) against the migrations', () => {
  let migrated: Map<string, Map<string, string>>;
  const specs = Object.entries(TABLES) as [string, TableSpec][];
  beforeAll(async () => {
    migrated = await migratedColumns();
  });

  it('declares exactly the tables the migrations create', () => {
    expect(Object.keys(TABLES).sort()).toEqual([...migrated.keys()].sort());
  });

  it('names only columns the migrations give the table: keys, segment, partition, JSON columns', () => {
    for (const [name, spec] of specs) {
      const columns = migrated.get(name)!;
      for (const key of spec.keys) expect(columns.has(key), `${name}: key ${key}`).toBe(true);
      expect(columns.has('segment'), `${name}: segment`).toBe(spec.segmented === true);
      const json = [...columns].filter(([, type]) => type === 'JSON').map(([column]) => column);
      expect(json, `${name}: JSON columns`).toEqual([...(spec.jsonColumns ?? [])]);
      if (spec.unitScoped) expect(columns.has('campaign_id'), `${name}: campaign_id`).toBe(true);
      for (const { column, sumOf } of spec.backfilled ?? []) {
        expect(columns.has(column), `${name}: backfilled ${column}`).toBe(true);
        if (sumOf) expect(columns.has(sumOf), `${name}: ${column} sums ${sumOf}`).toBe(true);
        expect(spec.kind, `${name}: backfilled`).toBe('fact');
        const sql = readFileSync(join('sql', 'warehouse', 'backfill', `${name}.sql`), 'utf8');
        expect(sql, `${name}: its backfill computes ${column}`).toMatch(new RegExp(`\\b${column}\\b`));
      }
    }
  });

  it('partitions facts by their snapshot_date column and stream tables by the date of received_at', () => {
    for (const [name, spec] of specs) {
      const columns = migrated.get(name)!;
      if (spec.kind === 'fact') {
        expect(spec.partitionColumn, name).toBe('snapshot_date');
        expect(columns.get('snapshot_date'), name).toBe('DATE');
      } else if (spec.kind === 'stream') {
        expect(spec.partitionColumn, name).toBe(STREAM_PARTITION_COLUMN);
        expect(columns.get('received_at'), name).toBe('TIMESTAMP');
      } else expect(spec.partitionColumn, name).toBeUndefined();
      if (spec.kind === 'entity')
        expect([columns.has('first_seen_at'), columns.has('last_seen_at')], name).toEqual([true, true]);
    }
  });

  it('has latest_<fact> for each fact the registry gives one (the catalog writes them), and no other', () => {
    const expected = specs.filter(([, spec]) => spec.latestView).map(([name]) => name);
    expect([...LATEST_FACTS].sort()).toEqual(expected.sort());
    expect(expected).toHaveLength(11);
    for (const [, spec] of specs) if (spec.latestView) expect(spec.kind).toBe('fact');
    // No analyst view file takes a latest_<fact> name.
    const files = listViews().map((view) => view.name);
    for (const fact of LATEST_FACTS) expect(files, fact).not.toContain(`latest_${fact}`);
  });
});
