import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyMigrations, listMigrations } from '../../src/warehouse/duckdb/apply-migrations.js';
import { openDatabase } from '../../src/warehouse/duckdb/open-database.js';
import { publishedPath, stagingPath } from '../../src/warehouse/duckdb/warehouse-paths.js';
import { publishRunRecord } from '../../src/warehouse/publish-run-record.js';
import { queryReadOnly } from '../../src/warehouse/read/query-read-only.js';
import { openStaging } from '../../src/warehouse/staging/open-staging.js';
import { tempDirEachTest } from '../helpers/temp-dir.js';
import { sampleRun } from '../helpers/warehouse-rows.js';

describe('warehouse migrations', () => {
  const data = tempDirEachTest('cw-warehouse-');

  it('lists the shipped migrations in version order', () => {
    const versions = listMigrations().map((m) => m.version);
    expect(versions.slice(0, 2)).toEqual([1, 2]);
    expect([...versions].sort((a, b) => a - b)).toEqual(versions);
  });

  it('upgrades a warehouse with only 001 applied in place, keeping its rows', async () => {
    const db = await openDatabase(publishedPath(data.dir));
    expect(await applyMigrations(db.connection, { upTo: 1 })).toEqual([1]);
    await db.connection.run(
      "insert into campaigns values ('c1', 'Old', 'w1', 'active', '2026-01-01', null, '{}', '2026-01-01 00:00:00', '2026-01-02 00:00:00')",
    );
    db.close();

    await publishRunRecord(data.dir, sampleRun('r1', '2026-11-20'));

    const applied = await queryReadOnly(
      data.dir,
      'select version, name from schema_migrations order by version',
    );
    expect(applied.rows).toEqual(listMigrations().map((m) => [m.version, m.name]));
    const kept = await queryReadOnly(data.dir, 'select campaign_id, name, first_seen_at from campaigns');
    expect(kept.rows).toEqual([['c1', 'Old', '2026-01-01T00:00:00.000Z']]);
    const streaming = await queryReadOnly(data.dir, 'select count(*) from stream_documents');
    expect(streaming.rows).toEqual([[0]]);
  });

  it('applies the pending migrations in one transaction: a failing one names itself and leaves the file as it was', async () => {
    const db = await openDatabase(publishedPath(data.dir));
    try {
      const migrations = [
        { version: 1, name: 'one', sql: 'create table one (id integer)' },
        {
          version: 2,
          name: 'two',
          sql: 'create table two (id integer); alter table one add column name varchar',
        },
        { version: 3, name: 'broken', sql: 'alter table missing add column name varchar' },
      ];
      expect(await applyMigrations(db.connection, { migrations: migrations.slice(0, 1) })).toEqual([1]);
      await expect(applyMigrations(db.connection, { migrations })).rejects.toThrow(
        'warehouse migration 3_broken failed',
      );
      const tables = await db.connection.runAndReadAll(
        'select table_name from duckdb_tables() where database_name = current_database() order by 1',
      );
      expect(tables.getRows()).toEqual([['one'], ['schema_migrations']]);
      expect(await applyMigrations(db.connection, { migrations: migrations.slice(0, 2) })).toEqual([2]);
      const recorded = await db.connection.runAndReadAll(
        'select version, name from schema_migrations order by 1',
      );
      expect(recorded.getRows()).toEqual([
        [1, 'one'],
        [2, 'two'],
      ]);
    } finally {
      db.close();
    }
  });

  it('gives the rows a previous release staged their campaign totals (005), as normalization does', async () => {
    // A sync of the previous release (migrations up to 004) staged a unit, then was stopped.
    const path = stagingPath(data.dir, 'resumed');
    mkdirSync(dirname(path), { recursive: true });
    const db = await openDatabase(path);
    await applyMigrations(db.connection, { upTo: 4 });
    await db.connection.run(
      `insert into campaign_metrics values ('2026-11-20', 'all', 'c1', 3, 2, 1200, 0.04, 9000, 310.5);
       insert into campaign_network_metrics values
         ('2026-11-20', 'all', 'c1', 'instagram', 2, 2, 1000, 0.05, 8000, null),
         ('2026-11-20', 'all', 'c1', 'tiktok', 1, 1, 200, 0.02, 3000, null)`,
    );
    db.close();
    // This release resumes it.
    const staging = await openStaging(data.dir, 'resumed');
    await staging.close();
    const reopened = await openDatabase(path, { access_mode: 'READ_ONLY' });
    try {
      const rows = await reopened.connection.runAndReadAll(
        'select network, campaign_posts, campaign_engagement, campaign_emv, campaign_total_reach from campaign_network_metrics order by 1',
      );
      expect(rows.getRows()).toEqual([
        ['instagram', 3n, 1200n, null, 9000n],
        ['tiktok', 3n, 1200n, null, 9000n],
      ]);
    } finally {
      reopened.close();
    }
  });

  it('applying twice applies nothing the second time', async () => {
    const db = await openDatabase(publishedPath(data.dir));
    try {
      expect((await applyMigrations(db.connection)).length).toBe(listMigrations().length);
      expect(await applyMigrations(db.connection)).toEqual([]);
    } finally {
      db.close();
    }
  });
});
