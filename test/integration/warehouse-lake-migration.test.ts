import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/warehouse/duckdb/open-database.js';
import { publishedPath } from '../../src/warehouse/duckdb/warehouse-paths.js';
import { refreshCatalog } from '../../src/warehouse/lake/index.js';
import { publishStream } from '../../src/warehouse/publish-stream.js';
import { queryReadOnly } from '../../src/warehouse/read/query-read-only.js';
import { TOTALS_HELD, totalsBefore } from '../helpers/campaign-totals.js';
import { removableTempDir } from '../helpers/temp-dir.js';
import { sampleStreamBatch } from '../helpers/warehouse-stream-rows.js';
import { stageAndPublish } from '../helpers/warehouse-temp.js';

/** Each campaign_network_metrics row's campaign totals: as the previous release computed them, as held. */
const inOrder = (totals: string) =>
  `select snapshot_date::varchar, * exclude (snapshot_date) from ${totals} order by all`;
const CAMPAIGN_TOTALS_BEFORE = inOrder(totalsBefore('campaign_network_metrics', 'campaign_metrics'));
const CAMPAIGN_TOTALS = inOrder(TOTALS_HELD);

/** A file the previous release wrote (test/fixtures/warehouse/README.md). */
const FIXTURE = join('test', 'fixtures', 'warehouse', 'release-0.1.0.duckdb.gz');

/**
 * Per table: row count and a digest of every row, from a file's tables or views; of the
 * columns `columns` names for it, when it does (the previous release's).
 */
async function digests(
  path: string,
  tables: string[],
  columns: Record<string, string[]> = {},
): Promise<Record<string, string>> {
  const db = await openDatabase(path, { access_mode: 'READ_ONLY' });
  try {
    const out: Record<string, string> = {};
    for (const table of tables) {
      const select = columns[table]?.map((c) => `"${c}"`).join(', ') ?? '*';
      const reader = await db.connection.runAndReadAll(
        `select count(*)::varchar || ':' || coalesce(md5(string_agg(t::varchar, '|' order by t::varchar)), '') from (select ${select} from "${table}") t`,
      );
      out[table] = String(reader.getRows()[0]![0]);
    }
    return out;
  } finally {
    db.close();
  }
}

describe('conversion of a warehouse.duckdb of the previous release', () => {
  const data = removableTempDir('cw-lake-migration-');
  const original = join(data.dir, 'original.duckdb');
  let tables: string[];
  let columns: Record<string, string[]>;
  let before: Record<string, string>;
  let totals: unknown[][];

  beforeAll(async () => {
    writeFileSync(original, gunzipSync(readFileSync(FIXTURE)));
    writeFileSync(publishedPath(data.dir), readFileSync(original));
    const db = await openDatabase(original, { access_mode: 'READ_ONLY' });
    tables = (
      await db.connection.runAndReadAll(
        "select table_name from duckdb_tables() where table_name <> 'schema_migrations' order by 1",
      )
    )
      .getRows()
      .map((row) => String(row[0]));
    columns = {};
    const reader = await db.connection.runAndReadAll(
      "select table_name, list(column_name order by column_index) from duckdb_columns() where table_name <> 'schema_migrations' group by 1",
    );
    for (const [table, names] of reader.getRows())
      columns[String(table)] = (names as { items: unknown[] }).items.map(String);
    totals = (await db.connection.runAndReadAll(CAMPAIGN_TOTALS_BEFORE)).getRows();
    db.close();
    before = await digests(original, tables);
  });
  afterAll(() => data.remove());

  it('converts on the first run, keeping every row of every table', async () => {
    expect(Number(before.post_metrics!.split(':')[0])).toBeGreaterThan(0);
    expect(await refreshCatalog(data.dir)).toBe('converted');
    expect(await digests(publishedPath(data.dir), tables, columns)).toEqual(before);
    // The rows of campaign_network_metrics got their campaign totals (migration 005), as the
    // previous release's network_breakdown computed them.
    expect(totals.length).toBeGreaterThan(0);
    expect((await queryReadOnly(data.dir, CAMPAIGN_TOTALS)).rows).toEqual(
      totals.map((row) => row.map((v) => (typeof v === 'bigint' ? Number(v) : v))),
    );
    expect(existsSync(`${publishedPath(data.dir)}.before-lake`)).toBe(true);
    // Facts in today's layout: one link per table, a file per day of the open month and
    // segment, in its `last_date=` folder.
    const facts = readdirSync(join(data.dir, 'lake', 'post_metrics', 'last_date=2026-11-20'));
    expect(facts.filter((f) => f.startsWith('2026-11-20~')).length).toBeGreaterThan(0);
    expect(
      readdirSync(join(data.dir, 'lake', 'post_metrics')).some((f) => f.startsWith('snapshot_date=')),
    ).toBe(false);
    // Converted once: the next run finds the catalog current.
    expect(await refreshCatalog(data.dir)).toBeUndefined();
    const latest = await queryReadOnly(data.dir, 'select distinct snapshot_date from latest_post_metrics');
    expect(latest.rows).toEqual([['2026-11-20']]);
  });

  it('keeps exactly-once for documents it already held, and takes new syncs', async () => {
    const docs = Number(before.stream_documents!.split(':')[0]);
    await publishStream(data.dir, sampleStreamBatch());
    expect((await queryReadOnly(data.dir, 'select count(*) from stream_documents')).rows[0]![0]).toBe(docs);
    await stageAndPublish(data.dir, '2026-11-21', ['all']);
    const dates = await queryReadOnly(data.dir, 'select distinct snapshot_date from sync_runs order by 1');
    expect(dates.rows.map((row) => row[0])).toEqual(['2026-11-19', '2026-11-20', '2026-11-21']);
    const applied = await queryReadOnly(data.dir, 'select count(*) from schema_migrations');
    expect(applied.rows[0]![0]).toBeGreaterThanOrEqual(2);
  });
});
