/**
 * The history benchmark's native comparison: some of the lake's tables copied into native
 * DuckDB tables, the others left as the lake's own views, and the analyst views on top, so the
 * same questions run on both.
 */
import { statSync } from 'node:fs';
import type { DuckDBConnection } from '@duckdb/node-api';
import { createViews, listViews } from '../src/warehouse/duckdb/create-views.js';
import { openWriter, PUBLISH_SETTINGS } from '../src/warehouse/duckdb/open-database.js';
import { publishedPath, sqlIdentifier, sqlString } from '../src/warehouse/duckdb/warehouse-paths.js';

/**
 * Copied whatever the history's length: the entities (small) and the fact tables of the
 * whole-history questions, ~220k to 3.5M rows at 1,095 days. post_metrics (186M rows at
 * 1,095 days; post_stats, 745M, never) is copied only if its measured cost fits NATIVE_BUDGET.
 */
export const NATIVE_TABLES = [
  'workspaces',
  'campaigns',
  'influencers',
  'influencer_tags',
  'campaign_metrics',
  'campaign_network_metrics',
  'influencer_campaign_metrics',
];

/**
 * What a native copy of post_metrics may cost: the copy's time (a whole run at 1,095 days
 * should stay within ~15 minutes on 2 cores) and its share of the disk left free.
 */
export const NATIVE_BUDGET = { seconds: 180, freeShare: 0.5 };

/** Days of post_metrics copied to measure what a copy of all of them would cost. */
const PROBE_DAYS = 10;

async function withNativeFile<T>(
  path: string,
  lakeDir: string,
  work: (c: DuckDBConnection) => Promise<T>,
): Promise<T> {
  const db = await openWriter(path, { ...PUBLISH_SETTINGS, memory_limit: '1GB', threads: '2' }, 122_880);
  try {
    await db.connection.run(`attach ${sqlString(publishedPath(lakeDir))} as lake (read_only)`);
    const result = await work(db.connection);
    await db.connection.run('detach lake');
    await db.connection.run('checkpoint');
    return result;
  } finally {
    db.close();
  }
}

/**
 * The time (s) and bytes a native copy of the whole of post_metrics would take, from a copy of
 * its last PROBE_DAYS days before `latest` into a scratch file at `path` (scaled by `days`).
 */
export async function probePostMetricsCopy(
  lakeDir: string,
  path: string,
  latest: string,
  days: number,
): Promise<{ seconds: number; bytes: number }> {
  const started = performance.now();
  await withNativeFile(path, lakeDir, (c) =>
    c.run(
      `create table probe as select * from lake.main.post_metrics where snapshot_date > ${sqlString(latest)}::date - ${PROBE_DAYS}`,
    ),
  );
  const scale = days / PROBE_DAYS;
  return { seconds: ((performance.now() - started) / 1000) * scale, bytes: statSync(path).size * scale };
}

/**
 * Writes `path`: `tables` copied from the lake of `lakeDir` as native tables, every other
 * table (and lake_latest's) as the lake's own view, then the analyst views.
 */
export async function nativeCopy(lakeDir: string, path: string, tables: readonly string[]): Promise<void> {
  await withNativeFile(path, lakeDir, async (connection) => {
    const reader = await connection.runAndReadAll(
      "select schema_name, view_name, sql from duckdb_views() where database_name = 'lake' and schema_name in ('main', 'lake_latest') and sql ilike '%read_parquet(%' order by schema_name",
    );
    await connection.run('create schema lake_latest');
    for (const [schema, name, sql] of reader.getRows()) {
      if (schema === 'main' && tables.includes(String(name)))
        await connection.run(
          `create table main.${sqlIdentifier(String(name))} as select * from lake.main.${sqlIdentifier(String(name))}`,
        );
      else await connection.run(String(sql));
    }
    await createViews(connection, listViews(), { dropExisting: false });
  });
}
