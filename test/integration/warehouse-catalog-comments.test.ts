import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refreshCatalog } from '../../src/warehouse/lake/index.js';
import { publishStream } from '../../src/warehouse/publish-stream.js';
import { readOnlyCatalog } from '../helpers/read-only-catalog.js';
import { removableTempDir } from '../helpers/temp-dir.js';
import { sampleStreamBatch } from '../helpers/warehouse-stream-rows.js';
import { stageAndPublish } from '../helpers/warehouse-temp.js';

/** What a BI tool's schema browser reads: every table and view, with its comment, and every column's. */
async function browse(dataDir: string) {
  const catalog = await readOnlyCatalog(dataDir);
  try {
    const rows = async (sql: string) =>
      (await catalog.connection.runAndReadAll(sql)).getRows().map((row) => row.map(String));
    return {
      objects: await rows(
        `select schema_name, table_name, coalesce(comment, '<none>') from duckdb_tables() where database_name = current_database()
         union all
         select schema_name, view_name, coalesce(comment, '<none>') from duckdb_views() where database_name = current_database() and not internal
         order by 1, 2`,
      ),
      columns: await rows(
        `select table_name, column_name, coalesce(comment, '<none>') from duckdb_columns()
          where database_name = current_database() and not internal order by 1, column_index`,
      ),
      schemas: await rows(
        'select distinct table_schema from information_schema.tables where table_catalog = current_database() order by 1',
      ),
    };
  } finally {
    catalog.close();
  }
}

/** The tables, views and columns of `seen` that have no description. */
function undescribed(seen: Awaited<ReturnType<typeof browse>>): string[] {
  return [
    ...seen.objects
      .filter(([, , comment]) => comment === '<none>' || comment === '')
      .map(([, name]) => name!),
    ...seen.columns
      .filter(([, , comment]) => comment === '<none>' || comment === '')
      .map(([table, column]) => `${table}.${column}`),
  ];
}

describe('the catalog describes itself (COMMENT ON every table, view and column)', () => {
  const data = removableTempDir('cw-catalog-comments-');
  beforeAll(async () => {
    await stageAndPublish(data.dir, '2026-11-19', ['all', 'vip'], { campaigns: ['c1', 'c2'] });
    await publishStream(data.dir, sampleStreamBatch());
  });
  afterAll(() => data.remove());

  it('a new warehouse: every table, view and column of the catalog has its description', async () => {
    const seen = await browse(data.dir);
    expect(undescribed(seen)).toEqual([]);
    expect(seen.objects.length).toBeGreaterThan(40);
    const comment = (table: string, column: string) =>
      seen.columns.find(([t, c]) => t === table && c === column)?.[2];
    // From the migration's column comment, a view's Columns block, and the shared columns.
    expect(comment('campaign_metrics', 'total_reach')).toMatch(/not the sum of/i);
    expect(comment('network_breakdown', 'share_of_posts')).toMatch(/add up to 1/);
    expect(comment('latest_campaign_metrics', 'total_reach')).toBe(
      comment('campaign_metrics', 'total_reach'),
    );
    expect(comment('post_metrics', 'snapshot_date')).toMatch(/API refresh/);
  });

  it('lists only schema main: no internal views beside the ones to query', async () => {
    const seen = await browse(data.dir);
    expect(seen.schemas).toEqual([['main']]);
    expect(seen.objects.filter(([schema]) => schema !== 'main')).toEqual([]);
  });

  it('keeps them after `catalog rebuild` and after another publish', async () => {
    expect(await refreshCatalog(data.dir, { force: true })).toBe('rebuilt');
    expect(undescribed(await browse(data.dir))).toEqual([]);
    await stageAndPublish(data.dir, '2026-11-20', ['all'], { runId: 'r2', campaigns: ['c1'] });
    expect(undescribed(await browse(data.dir))).toEqual([]);
  });
});
