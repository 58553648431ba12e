import { execFileSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, readdirSync, readlinkSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, describe, expect, it } from 'vitest';
import { TABLES, type TableSpec } from '../../src/contracts/table-registry.js';
import { publishedPath, sqlString } from '../../src/warehouse/duckdb/warehouse-paths.js';
import {
  FACT_LAYOUT,
  GENERATION_FILE,
  lakePath,
  readStamp,
  refreshCatalog,
  versionFiles,
  writeStamp,
} from '../../src/warehouse/lake/testing.js';
import { queryReadOnly } from '../../src/warehouse/read/query-read-only.js';
import { TOTALS_HELD, totalsBefore } from '../helpers/campaign-totals.js';
import { removableTempDir } from '../helpers/temp-dir.js';

/** A data directory the release with per-date fact folders wrote (test/fixtures/warehouse/README.md). */
const FIXTURE = join('test', 'fixtures', 'warehouse', 'lake-release-0.1.0-daily.tar.gz');
/** A data directory the release with one flat folder per fact table wrote (same README). */
const FLAT_FIXTURE = join('test', 'fixtures', 'warehouse', 'lake-release-0.1.0-flat.tar.gz');

function extract(dir: string, fixture = FIXTURE): string {
  mkdirSync(dir, { recursive: true });
  execFileSync('tar', ['xzf', fixture, '-C', dir]);
  return dir;
}

/** The fact tables of the old layout: folders of `snapshot_date=` links. */
function oldFactTables(lake: string): string[] {
  return readdirSync(lake)
    .filter((t) => !t.startsWith('_') && lstatSync(join(lake, t)).isDirectory())
    .filter((t) => readdirSync(join(lake, t)).some((p) => p.startsWith('snapshot_date=')))
    .sort();
}

/** Columns the upgrade computes for the old rows (TableSpec.backfilled), checked by campaignTotals. */
const BACKFILLED: ReadonlySet<string> = new Set(
  Object.values(TABLES).flatMap((spec: TableSpec) => (spec.backfilled ?? []).map((b) => b.column)),
);

/**
 * Per date: its row count and a digest of its rows (every column but `skip`, by name, in name
 * order), of the rows `from` selects (a table with snapshot_date).
 */
async function perDate(
  from: string,
  catalog = ':memory:',
  skip: ReadonlySet<string> = BACKFILLED,
): Promise<Record<string, string>> {
  const instance = await DuckDBInstance.create(catalog, {
    access_mode: catalog === ':memory:' ? 'READ_WRITE' : 'READ_ONLY',
  });
  const connection = await instance.connect();
  try {
    const names = (await connection.runAndReadAll(`select column_name from (describe select * from ${from})`))
      .getRows()
      .map((row) => String(row[0]))
      .filter((name) => !skip.has(name))
      .sort();
    const row = `concat_ws('|', ${names.map((n) => `coalesce("${n}"::varchar, '-')`).join(', ')})`;
    const reader = await connection.runAndReadAll(
      `select strftime(snapshot_date, '%Y-%m-%d'), count(*)::varchar || ':' || md5(string_agg(${row}, ',' order by ${row}))
         from ${from} group by 1 order by 1`,
    );
    return Object.fromEntries(reader.getRows().map(([d, digest]) => [String(d), String(digest)]));
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

const oldRead = (glob: string) =>
  `read_parquet(${sqlString(glob)}, hive_partitioning = true, union_by_name = true, hive_types = {'snapshot_date': 'DATE'})`;

/**
 * Per date, a digest of each campaign_network_metrics row's campaign totals: as network_breakdown
 * computed them before migration 005 (`sources` of the old rows), or, without sources, as the
 * upgraded catalog's view holds them.
 */
async function campaignTotals(catalog: string, sources?: { networks: string; campaigns: string }) {
  const from = sources ? totalsBefore(sources.networks, sources.campaigns) : TOTALS_HELD;
  return perDate(from, catalog, new Set());
}

/** What the old layout holds: every fact table's rows per date, and its latest tree's. */
async function oldContents(dir: string) {
  const lake = lakePath(dir);
  const facts: Record<string, Record<string, string>> = {};
  const latest: Record<string, Record<string, string>> = {};
  for (const table of oldFactTables(lake)) {
    facts[table] = await perDate(oldRead(`${lake}/${table}/snapshot_date=*/*.parquet`));
    latest[table] = await perDate(oldRead(`${lake}/_latest/${table}/snapshot_date=*/*.parquet`));
  }
  return { facts, latest };
}

/**
 * The same through the upgraded catalog's views (`post_metrics`, `latest_post_metrics`); the
 * latest tree of a fact without a latest_<fact> view (the checks' tables) read as that view
 * would read it.
 */
async function newContents(dir: string, tables: readonly string[]) {
  const facts: Record<string, Record<string, string>> = {};
  const latest: Record<string, Record<string, string>> = {};
  for (const table of tables) {
    facts[table] = await perDate(`"${table}"`, publishedPath(dir));
    latest[table] = (TABLES as Record<string, TableSpec>)[table]?.latestView
      ? await perDate(`"latest_${table}"`, publishedPath(dir))
      : await perDate(
          `(select * from read_parquet(${sqlString(`${lakePath(dir)}/_latest/${table}/*.parquet`)}, union_by_name = true))`,
        );
  }
  return { facts, latest };
}

describe('the upgrade of a data directory with per-date fact folders', () => {
  const data = removableTempDir('cw-lake-upgrade-');
  afterAll(() => data.remove());

  it('converts at the first run, keeping every row of every date, latest trees included; once', async () => {
    const dir = extract(join(data.dir, 'once'));
    const lake = lakePath(dir);
    const tables = oldFactTables(lake);
    expect(tables).toContain('post_metrics');
    const before = await oldContents(dir);
    expect(Object.keys(before.facts.post_metrics!)).toEqual([
      '2026-10-29',
      '2026-10-30',
      '2026-10-31',
      '2026-11-01',
      '2026-11-02',
    ]);
    const documents = await perDate(
      `(select cast(received_at as date) as snapshot_date, document_id from read_parquet(${sqlString(`${lake}/stream_documents/received_date=*/*.parquet`)}, union_by_name = true))`,
    );
    expect(Object.keys(documents).length).toBeGreaterThan(0);

    const totals = await campaignTotals(':memory:', {
      networks: oldRead(`${lake}/campaign_network_metrics/snapshot_date=*/*.parquet`),
      campaigns: oldRead(`${lake}/campaign_metrics/snapshot_date=*/*.parquet`),
    });

    expect(await refreshCatalog(dir)).toBe('upgraded');
    expect(await newContents(dir, tables)).toEqual(before);
    expect(readStamp(lake)?.layout).toBe(FACT_LAYOUT);
    // The rows published before migration 005 got their campaign totals.
    expect(await campaignTotals(publishedPath(dir))).toEqual(totals);
    expect(Object.keys(totals)).toHaveLength(5);

    // The new layout: one link per table; October (closed) in a file per segment, November's
    // days a file each per segment; no per-date folder left.
    expect(lstatSync(join(lake, 'post_metrics')).isSymbolicLink()).toBe(true);
    const places = versionFiles(join(lake, 'post_metrics'))
      .map((name) => name.replace(/\.[0-9a-z]+\.parquet$/, ''))
      .sort();
    expect(places).toEqual([
      'last_date=0001-01-01/_schema',
      'last_date=2026-10-31/2026-10~all',
      'last_date=2026-10-31/2026-10~instagram',
      'last_date=2026-11-01/2026-11-01~all',
      'last_date=2026-11-01/2026-11-01~instagram',
      'last_date=2026-11-02/2026-11-02~all',
      'last_date=2026-11-02/2026-11-02~instagram',
    ]);
    // Nothing left aside (the lake's generation file is not a leftover).
    expect(readdirSync(lake).filter((name) => name.startsWith('.') && name !== GENERATION_FILE)).toEqual([]);
    // The month files are sorted by date (what lets their row groups' statistics prune).
    const unsorted = await perDate(
      `(select snapshot_date from (select snapshot_date, lag(snapshot_date) over (partition by filename order by file_row_number) as before
          from read_parquet(${sqlString(`${lake}/post_metrics/last_date=2026-10-31/2026-10~*.parquet`)}, file_row_number = true, filename = true))
        where snapshot_date < before)`,
    );
    expect(unsorted).toEqual({});
    for (const table of tables) expect(lstatSync(join(lake, table)).isSymbolicLink(), table).toBe(true);

    // The views answer, the stream tables kept their rows, and a second run changes nothing.
    // A closed month's day, read from the month files (filtered by date).
    const day = await queryReadOnly(
      dir,
      "select count(*) from post_metrics where snapshot_date = '2026-10-30'",
    );
    expect(day.rows[0]![0]).toBe(Number(before.facts.post_metrics!['2026-10-30']!.split(':')[0]));
    // The latest trees hold the rewritten files: the latest day's shares are there.
    const shares = await queryReadOnly(
      dir,
      'select count(*), count(share_of_posts), count(campaign_total_reach) from latest_network_breakdown',
    );
    expect(shares.rows[0]![0]).toBeGreaterThan(0);
    expect(shares.rows[0]).toEqual([shares.rows[0]![0], shares.rows[0]![0], shares.rows[0]![0]]);
    expect(
      await perDate(
        '(select cast(received_at as date) as snapshot_date, document_id from stream_documents)',
        publishedPath(dir),
      ),
    ).toEqual(documents);
    expect(await refreshCatalog(dir)).toBeUndefined();
  }, 180_000);

  it('a crash after the first table leaves a directory the next run finishes', async () => {
    const dir = extract(join(data.dir, 'crash'));
    const lake = lakePath(dir);
    const tables = oldFactTables(lake);
    const before = await oldContents(dir);
    const upgraded: string[] = [];
    await expect(
      refreshCatalog(dir, {
        afterUpgradeTable: (table) => {
          upgraded.push(table);
          throw new Error('crash after one table');
        },
      }),
    ).rejects.toThrow(/crash after one table/);
    expect(upgraded).toHaveLength(1);
    // The first table is in the new layout, the others still in the old; nothing is lost.
    expect(lstatSync(join(lake, upgraded[0]!)).isSymbolicLink()).toBe(true);
    expect(tables.filter((t) => lstatSync(join(lake, t)).isSymbolicLink())).toEqual(upgraded);

    expect(await refreshCatalog(dir)).toBe('upgraded');
    expect(await newContents(dir, tables)).toEqual(before);
    expect(existsSync(join(lake, `.upgrade-${upgraded[0]}`))).toBe(false);
    expect(await refreshCatalog(dir)).toBeUndefined();
  }, 180_000);
});

describe('the upgrade of a data directory with one flat folder per fact table', () => {
  const data = removableTempDir('cw-lake-upgrade-flat-');
  afterAll(() => data.remove());

  it("moves each fact file into its period's last_date folder at the first run (hard links), keeping every row; once", async () => {
    const dir = extract(join(data.dir, 'flat'), FLAT_FIXTURE);
    const lake = lakePath(dir);
    expect(readStamp(lake)!.layout).toBe(2);
    // The fact tables: one link each to a flat folder of `<period>~<segment>` files.
    const facts = readdirSync(lake)
      .filter((t) => !t.startsWith('_') && lstatSync(join(lake, t)).isSymbolicLink())
      .filter((t) => versionFiles(join(lake, t)).some((f) => f.includes('~')))
      .sort();
    expect(facts).toContain('post_metrics');
    const before: Record<string, Record<string, string>> = {};
    for (const table of facts)
      before[table] = await perDate(
        `read_parquet(${sqlString(`${lake}/${table}/*.parquet`)}, union_by_name = true)`,
      );
    const inode = (table: string) =>
      new Map(
        versionFiles(join(lake, table)).map((f) => [
          f.replace(/^.*\//, '').replace(/\.[0-9a-z]+\.parquet$/, ''),
          statSync(join(lake, table, f)).ino,
        ]),
      );
    const inodesBefore = inode('post_metrics');
    expect([...inodesBefore.keys()].sort()).toEqual([
      '2026~all',
      '2026~instagram',
      '2027-01-11~all',
      '2027-01-11~instagram',
      '2027-01-12~all',
      '2027-01-12~instagram',
      '2027-01-D1~all',
      '2027-01-D1~instagram',
      '_schema',
    ]);

    const flatRead = (table: string) =>
      `read_parquet(${sqlString(`${lake}/${table}/*.parquet`)}, union_by_name = true)`;
    const totals = await campaignTotals(':memory:', {
      networks: flatRead('campaign_network_metrics'),
      campaigns: flatRead('campaign_metrics'),
    });
    const networkFiles = versionFiles(join(lake, 'campaign_network_metrics')).length;

    expect(await refreshCatalog(dir)).toBe('upgraded');
    expect(readStamp(lake)!.layout).toBe(FACT_LAYOUT);
    // Every row of every date, through the catalog's views; the rows published before
    // migration 005 with their campaign totals, each file of campaign_network_metrics rewritten
    // once with them (the same places).
    for (const table of facts) expect(await perDate(table, publishedPath(dir)), table).toEqual(before[table]);
    expect(await campaignTotals(publishedPath(dir))).toEqual(totals);
    expect(Object.keys(totals).length).toBeGreaterThan(10);
    expect(versionFiles(join(lake, 'campaign_network_metrics'))).toHaveLength(networkFiles);
    // The same files, each in the folder of its period's last date; only the anchor is new.
    expect(
      versionFiles(join(lake, 'post_metrics')).map((f) => f.replace(/\.[0-9a-z]+\.parquet$/, '')),
    ).toEqual([
      'last_date=0001-01-01/_schema',
      'last_date=2026-12-31/2026~all',
      'last_date=2026-12-31/2026~instagram',
      'last_date=2027-01-10/2027-01-D1~all',
      'last_date=2027-01-10/2027-01-D1~instagram',
      'last_date=2027-01-11/2027-01-11~all',
      'last_date=2027-01-11/2027-01-11~instagram',
      'last_date=2027-01-12/2027-01-12~all',
      'last_date=2027-01-12/2027-01-12~instagram',
    ]);
    const inodesAfter = inode('post_metrics');
    for (const [label, ino] of inodesBefore)
      if (label !== '_schema') expect(inodesAfter.get(label), label).toBe(ino);
    expect(
      (await queryReadOnly(dir, 'select distinct snapshot_date::varchar from latest_post_metrics')).rows,
    ).toEqual([['2027-01-12']]);
    expect(await refreshCatalog(dir)).toBeUndefined();

    // A lake a later release laid out is left alone: this release would not see its fact
    // files where that one put them (as the previous release does not see these folders).
    writeStamp(lake, { ...readStamp(lake)!, layout: FACT_LAYOUT + 1 });
    const live = readlinkSync(join(lake, 'post_metrics'));
    await expect(refreshCatalog(dir)).rejects.toThrow(
      new RegExp(
        `laid out by a later release .*fact layout ${FACT_LAYOUT + 1}; this release knows ${FACT_LAYOUT}`,
      ),
    );
    expect(readlinkSync(join(lake, 'post_metrics'))).toBe(live);
  }, 180_000);
});
