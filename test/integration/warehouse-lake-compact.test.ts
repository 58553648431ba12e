import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, describe, expect, it } from 'vitest';
import { TABLES } from '../../src/contracts/table-registry.js';
import { sqlString } from '../../src/warehouse/duckdb/warehouse-paths.js';
import { lakePath, maintainLake } from '../../src/warehouse/lake/index.js';
import { queryReadOnly } from '../../src/warehouse/read/query-read-only.js';
import { liveFile, liveFiles } from '../helpers/lake-files.js';
import { queryRows as rows } from '../helpers/query-rows.js';
import { type ReadOnlyCatalog, readOnlyCatalog } from '../helpers/read-only-catalog.js';
import { removableTempDir } from '../helpers/temp-dir.js';
import { stageAndPublish } from '../helpers/warehouse-temp.js';

const TABLE = 'campaign_metrics';
const PER_DATE = `select snapshot_date::varchar, segment, count(*)::integer from ${TABLE} group by all order by all`;
const LATEST = `select snapshot_date::varchar, segment, count(*)::integer from latest_${TABLE} group by all order by all`;

/** campaign_metrics' live data files, by label (`<period>~<segment>`), sorted. */
const labels = (dir: string) => [...liveFiles(dir, TABLE).keys()].sort();

/** The rows of `campaigns` campaigns (c1, c2, ...): a date's row count per segment tells its publish apart. */
const campaigns = (n: number) => Array.from({ length: n }, (_, i) => `c${i + 1}`);

describe('a compactFiles fact table (campaign_metrics)', () => {
  const data = removableTempDir('cw-lake-compact-');
  let held: ReadOnlyCatalog | undefined;
  afterAll(() => {
    held?.close();
    data.remove();
  });

  it('is declared so, and the per-post tables are not (their year would be rewritten)', () => {
    expect(TABLES.campaign_metrics.compactFiles).toBe(true);
    expect(TABLES.campaign_network_metrics.compactFiles).toBe(true);
    expect('compactFiles' in TABLES.post_metrics).toBe(false);
  });

  it("keeps its open ten days in one file and its open year's closed ten days in one; a held connection sees every step", async () => {
    const dir = join(data.dir, 'fresh');
    const segments = ['all', 'vip'];
    await stageAndPublish(dir, '2026-10-29', segments, { campaigns: campaigns(1) });
    await stageAndPublish(dir, '2026-10-30', segments, { runId: 'r2', campaigns: campaigns(2) });
    await stageAndPublish(dir, '2026-10-31', segments, { runId: 'r3', campaigns: campaigns(3) });
    // The open ten days: one file per segment, rewritten by each publish.
    expect(labels(dir)).toEqual(['2026-10-D3~all', '2026-10-D3~vip']);
    expect((await maintainLake(dir)).closedPeriodFiles[TABLE]).toBeUndefined();

    held = await readOnlyCatalog(dir);
    const october = [1, 2, 3].flatMap((n, i) => segments.map((segment) => [`2026-10-${29 + i}`, segment, n]));
    expect(await rows(held.connection, PER_DATE)).toEqual(october);

    // A later ten days: a file of their own; the upkeep folds the closed ten days into the year's.
    await stageAndPublish(dir, '2026-11-01', segments, { runId: 'r4', campaigns: campaigns(4) });
    expect(labels(dir)).toEqual(['2026-10-D3~all', '2026-10-D3~vip', '2026-11-D1~all', '2026-11-D1~vip']);
    const withNovember = [...october, ...segments.map((segment) => ['2026-11-01', segment, 4])];
    expect(await rows(held.connection, PER_DATE)).toEqual(withNovember);
    expect((await maintainLake(dir)).closedPeriodFiles[TABLE]).toBe(2);
    expect(labels(dir)).toEqual(['2026-11-D1~all', '2026-11-D1~vip', '2026~all', '2026~vip']);
    expect(await rows(held.connection, PER_DATE)).toEqual(withNovember);
    expect(
      await rows(
        held.connection,
        `select snapshot_date::varchar from read_parquet(${sqlString(liveFile(dir, '2026~all', TABLE))})`,
      ),
    ).toEqual([
      ['2026-10-29'],
      ['2026-10-30'],
      ['2026-10-30'],
      ['2026-10-31'],
      ['2026-10-31'],
      ['2026-10-31'],
    ]);
    // Done once.
    expect((await maintainLake(dir)).closedPeriodFiles[TABLE]).toBeUndefined();

    // A day of the open ten days rewrites their file only: the year's file is linked, not copied.
    const year = liveFiles(dir, TABLE).get('2026~all');
    await stageAndPublish(dir, '2026-11-02', segments, { runId: 'r5', campaigns: campaigns(2) });
    expect(liveFiles(dir, TABLE).get('2026~all')).toBe(year);
    expect(labels(dir)).toEqual(['2026-11-D1~all', '2026-11-D1~vip', '2026~all', '2026~vip']);

    // A re-run of a closed date rewrites the year's file with that date replaced, not doubled.
    const tenDays = liveFiles(dir, TABLE).get('2026-11-D1~vip');
    await stageAndPublish(dir, '2026-10-30', ['vip'], { runId: 'r6', campaigns: campaigns(5) });
    expect(liveFiles(dir, TABLE).get('2026-11-D1~vip')).toBe(tenDays);
    expect(liveFiles(dir, TABLE).get('2026~all')).toBe(year);
    const expected = [
      ...october.map((row) => (row[0] === '2026-10-30' && row[1] === 'vip' ? [row[0], row[1], 5] : row)),
      ...segments.map((segment) => ['2026-11-01', segment, 4]),
      ...segments.map((segment) => ['2026-11-02', segment, 2]),
    ];
    expect(await rows(held.connection, PER_DATE)).toEqual(expected);
    expect(await rows(held.connection, LATEST)).toEqual(
      segments.map((segment) => ['2026-11-02', segment, 2]),
    );

    // A new year closes the last: its ten days join its year's file.
    await stageAndPublish(dir, '2027-01-03', segments, { runId: 'r7', campaigns: campaigns(1) });
    expect((await maintainLake(dir)).closedPeriodFiles[TABLE]).toBe(2);
    expect(labels(dir)).toEqual(['2026~all', '2026~vip', '2027-01-D1~all', '2027-01-D1~vip']);
    expect(await rows(held.connection, PER_DATE)).toEqual([
      ...expected,
      ...segments.map((segment) => ['2027-01-03', segment, 1]),
    ]);
    expect(await rows(held.connection, LATEST)).toEqual(
      segments.map((segment) => ['2027-01-03', segment, 1]),
    );
  });

  it("each closing ten days join the same year's file; a ten days emptied by a re-run leaves the year's file closed", async () => {
    const dir = join(data.dir, 'tens');
    const perDate = async () => (await queryReadOnly(dir, PER_DATE)).rows;
    const yearDates = async () =>
      (
        await queryReadOnly(
          dir,
          `select snapshot_date::varchar from read_parquet(${sqlString(liveFile(dir, '2026~all', TABLE))})`,
        )
      ).rows.map((row) => row[0]);
    await stageAndPublish(dir, '2026-10-31', ['all'], { campaigns: campaigns(1) });
    await stageAndPublish(dir, '2026-11-01', ['all'], { runId: 'r2', campaigns: campaigns(2) });
    await maintainLake(dir);
    await stageAndPublish(dir, '2026-11-11', ['all'], { runId: 'r3', campaigns: campaigns(3) });
    expect((await maintainLake(dir)).closedPeriodFiles[TABLE]).toBe(1);
    expect(labels(dir)).toEqual(['2026-11-D2~all', '2026~all']);
    expect(await yearDates()).toEqual(['2026-10-31', '2026-11-01', '2026-11-01']);
    const year = liveFiles(dir, TABLE).get('2026~all');

    // A re-run of the open ten days' only date finds no rows: their file goes.
    await stageAndPublish(dir, '2026-11-11', ['all'], { runId: 'r4', campaigns: [] });
    expect(labels(dir)).toEqual(['2026~all']);
    // The next day gets a ten days' file again: the year's holds closed ten days only.
    await stageAndPublish(dir, '2026-11-12', ['all'], { runId: 'r5', campaigns: campaigns(1) });
    expect(labels(dir)).toEqual(['2026-11-D2~all', '2026~all']);
    expect(liveFiles(dir, TABLE).get('2026~all')).toBe(year);
    // A re-run of a closed date replaces it in the year's file.
    await stageAndPublish(dir, '2026-11-01', ['all'], { runId: 'r6', campaigns: campaigns(4) });
    expect(labels(dir)).toEqual(['2026-11-D2~all', '2026~all']);
    expect(await perDate()).toEqual([
      ['2026-10-31', 'all', 1],
      ['2026-11-01', 'all', 4],
      ['2026-11-12', 'all', 1],
    ]);
    expect((await maintainLake(dir)).closedPeriodFiles[TABLE]).toBeUndefined();
  });

  it('a data directory of the previous release (a file per day, ten days and month) settles at its first upkeep, keeping every row', async () => {
    // Written by the previous release: test/fixtures/warehouse/README.md.
    const dir = join(data.dir, 'calendar');
    mkdirSync(dir, { recursive: true });
    execFileSync('tar', [
      'xzf',
      join('test', 'fixtures', 'warehouse', 'lake-release-0.1.0-calendar.tar.gz'),
      '-C',
      dir,
    ]);
    const segments = ['all', 'instagram'];
    const of = (periods: string[]) => periods.flatMap((p) => segments.map((s) => `${p}~${s}`)).sort();
    expect(labels(dir)).toEqual(of(['2026-10', '2026-11-D1', '2026-11-11', '2026-11-12']));
    const postFiles = [...liveFiles(dir).keys()].sort();
    const files = `read_parquet(${sqlString(`${lakePath(dir)}/${TABLE}/*/*.parquet`)}, hive_partitioning = false, union_by_name = true)`;
    const everyRow = async () => {
      const instance = await DuckDBInstance.create(':memory:');
      const connection = await instance.connect();
      try {
        return await rows(connection, `select * from ${files} order by all`);
      } finally {
        connection.closeSync();
        instance.closeSync();
      }
    };
    const before = await everyRow();
    expect(before.length).toBeGreaterThan(20);

    const result = await maintainLake(dir);
    expect(result.closedPeriodFiles[TABLE]).toBe(2);
    // October and the first ten days of November in the year's file; the open ten days' day files stay.
    expect(labels(dir)).toEqual(of(['2026', '2026-11-11', '2026-11-12']));
    expect(await everyRow()).toEqual(before);
    // The per-post tables keep a file per day, ten days and month.
    expect([...liveFiles(dir).keys()].sort()).toEqual(postFiles);

    // A re-run of the newest day: its day file makes way for the ten days' file.
    const dates = async () =>
      (
        await queryReadOnly(
          dir,
          `select snapshot_date::varchar, segment, count(*)::integer from ${TABLE} where snapshot_date >= '2026-11-11' group by all order by all`,
        )
      ).rows;
    const eleventh = (await dates()).filter((row) => row[0] === '2026-11-11');
    await stageAndPublish(dir, '2026-11-12', segments, { runId: 'rerun', campaigns: campaigns(3) });
    expect(labels(dir)).toEqual(of(['2026', '2026-11-11', '2026-11-D2']));
    expect(await dates()).toEqual([...eleventh, ...segments.map((segment) => ['2026-11-12', segment, 3])]);
  });
});
