import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cloneDays, datesAfter } from '../../bench/lake-history.js';
import { sqlString } from '../../src/warehouse/duckdb/warehouse-paths.js';
import {
  factVersion,
  fileHolding,
  lakePath,
  maintainLake,
  PERIOD_ROW_GROUP_SIZE,
} from '../../src/warehouse/lake/testing.js';
import { liveFile, liveFiles } from '../helpers/lake-files.js';
import { queryRows as rows } from '../helpers/query-rows.js';
import { type ReadOnlyCatalog, readOnlyCatalog } from '../helpers/read-only-catalog.js';
import { removableTempDir } from '../helpers/temp-dir.js';
import { stageAndPublish } from '../helpers/warehouse-temp.js';

/** Per date and segment: the rows and a checksum of their values (any changed, lost or doubled row changes it). */
const PER_DATE = `select snapshot_date::varchar, segment, count(*)::integer, bit_xor(hash(p))::varchar
  from post_metrics p group by all order by all`;
const LATEST =
  'select snapshot_date::varchar, segment, count(*)::integer from latest_post_metrics group by all order by all';

/** A file's snapshot_date per row, in the file's order. */
const datesOf = (file: string) => `select snapshot_date::varchar from read_parquet(${sqlString(file)})`;

/** The row groups' snapshot_date statistics of a file: rows, min, max, in the file's order. */
const groupsOf = (file: string) =>
  `select row_group_num_rows, stats_min, stats_max from parquet_metadata(${sqlString(file)})
    where path_in_schema = 'snapshot_date' order by row_group_id`;

describe('closed years of a fact table', () => {
  const data = removableTempDir('cw-lake-years-');
  let held: ReadOnlyCatalog | undefined;
  afterAll(() => {
    held?.close();
    data.remove();
  });
  const dir = join(data.dir, 'lake-years');

  it('are consolidated from their months and days once a later year has a snapshot; a held connection sees the same rows', async () => {
    await stageAndPublish(dir, '2025-11-30', ['all', 'vip'], { posts: 5 });
    await stageAndPublish(dir, '2025-12-30', ['all', 'vip'], { runId: 'r2', posts: 4 });
    expect((await maintainLake(dir)).closedPeriodFiles.post_metrics).toBe(2); // November, per segment
    await stageAndPublish(dir, '2026-01-02', ['all', 'vip'], { runId: 'r3', posts: 3 });
    expect([...liveFiles(dir).keys()].sort()).toEqual([
      '2025-11~all',
      '2025-11~vip',
      '2025-12-30~all',
      '2025-12-30~vip',
      '2026-01-02~all',
      '2026-01-02~vip',
    ]);

    held = await readOnlyCatalog(dir);
    const before = await rows(held.connection, PER_DATE);
    const latestBefore = await rows(held.connection, LATEST);
    expect(before).toHaveLength(6);

    expect((await maintainLake(dir)).closedPeriodFiles.post_metrics).toBe(2); // 2025, per segment
    expect([...liveFiles(dir).keys()].sort()).toEqual([
      '2025~all',
      '2025~vip',
      '2026-01-02~all',
      '2026-01-02~vip',
    ]);
    // At its next query, no reconnect: the same rows (counts and values) from the year files.
    expect(await rows(held.connection, PER_DATE)).toEqual(before);
    expect(await rows(held.connection, LATEST)).toEqual(latestBefore);
    // The month file and the day files were read in date order: the year file is by date.
    expect(await rows(held.connection, datesOf(liveFile(dir, '2025~all')))).toEqual([
      ...Array(5).fill(['2025-11-30']),
      ...Array(4).fill(['2025-12-30']),
    ]);
    // The history checks find a date's rows in its year's file.
    const live = factVersion(lakePath(dir), 'post_metrics')?.files ?? [];
    expect(fileHolding(live, '2025-12-30', 'vip')).toBe(liveFile(dir, '2025~vip'));
    expect((await maintainLake(dir)).closedPeriodFiles).toEqual({});
  });

  it('a re-run of a date in a closed year replaces that date in the year file, in date order (not doubled)', async () => {
    const before = liveFiles(dir);
    await stageAndPublish(dir, '2025-11-30', ['all'], { runId: 'r4', posts: 2 });
    const after = liveFiles(dir);
    expect([...after.keys()].sort()).toEqual([...before.keys()].sort());
    expect(after.get('2025~all')).not.toBe(before.get('2025~all'));
    for (const label of ['2025~vip', '2026-01-02~all', '2026-01-02~vip'])
      expect(after.get(label), label).toBe(before.get(label));
    expect((await rows(held!.connection, PER_DATE)).map((row) => row.slice(0, 3))).toEqual([
      ['2025-11-30', 'all', 2],
      ['2025-11-30', 'vip', 5],
      ['2025-12-30', 'all', 4],
      ['2025-12-30', 'vip', 4],
      ['2026-01-02', 'all', 3],
      ['2026-01-02', 'vip', 3],
    ]);
    expect(await rows(held!.connection, datesOf(liveFile(dir, '2025~all')))).toEqual([
      ...Array(2).fill(['2025-11-30']),
      ...Array(4).fill(['2025-12-30']),
    ]);
    // A date between two others of the year lands between them.
    await stageAndPublish(dir, '2025-12-01', ['all'], { runId: 'r5', posts: 1 });
    expect(await rows(held!.connection, datesOf(liveFile(dir, '2025~all')))).toEqual([
      ...Array(2).fill(['2025-11-30']),
      ['2025-12-01'],
      ...Array(4).fill(['2025-12-30']),
    ]);
    expect(await rows(held!.connection, LATEST)).toEqual([
      ['2026-01-02', 'all', 3],
      ['2026-01-02', 'vip', 3],
    ]);
  });
});

describe('row groups of a year file', () => {
  const data = removableTempDir('cw-lake-year-groups-');
  afterAll(() => data.remove());

  it('hold disjoint, ascending date ranges, whether the upkeep or the history builder wrote it', async () => {
    const dir = join(data.dir, 'upkeep');
    // 10,000 posts a day, 2025-11-20 to 2025-12-20: a month file of November, December's days.
    await stageAndPublish(dir, '2025-11-20', ['all'], { posts: 10_000 });
    cloneDays(dir, '2025-11-20', datesAfter('2025-11-20', 30));
    expect(liveFiles(dir).has('2025-11~all')).toBe(true);
    await stageAndPublish(dir, '2026-01-01', ['all'], { runId: 'r2', posts: 3 });
    const catalog = await readOnlyCatalog(dir);
    const { connection } = catalog;
    try {
      const before = await rows(connection, PER_DATE);
      expect(before).toHaveLength(32);
      expect((await maintainLake(dir)).closedPeriodFiles.post_metrics).toBe(1);
      expect([...liveFiles(dir).keys()].sort()).toEqual(['2025~all', '2026-01-01~all']);
      expect(await rows(connection, PER_DATE)).toEqual(before);
      const groups = await rows(connection, groupsOf(liveFile(dir, '2025~all')));
      // 310,000 rows: two groups, the first of at least PERIOD_ROW_GROUP_SIZE rows (whole batches).
      expect(groups).toHaveLength(2);
      expect(Number(groups[0]![0])).toBeGreaterThanOrEqual(PERIOD_ROW_GROUP_SIZE);
      expect(String(groups[0]![2]) <= String(groups[1]![1])).toBe(true);
      for (const [, min, max] of groups) expect(String(min) <= String(max)).toBe(true);
    } finally {
      catalog.close();
    }

    // The history builder of the benchmark writes the same layout: a year file per closed year.
    const built = join(data.dir, 'built');
    await stageAndPublish(built, '2024-12-01', ['all'], { posts: 10_000 });
    cloneDays(built, '2024-12-01', datesAfter('2024-12-01', 32)); // to 2025-01-02
    expect([...liveFiles(built).keys()].sort()).toEqual(['2024~all', '2025-01-01~all', '2025-01-02~all']);
    const reader = await readOnlyCatalog(built);
    try {
      const groups = await rows(reader.connection, groupsOf(liveFile(built, '2024~all')));
      expect(groups.map(([n]) => Number(n)).reduce((a, b) => a + b)).toBe(310_000);
      expect(groups).toHaveLength(2);
      expect(String(groups[0]![2]) <= String(groups[1]![1])).toBe(true);
      expect(
        await rows(
          reader.connection,
          'select count(distinct snapshot_date)::integer, count(*)::integer from post_metrics',
        ),
      ).toEqual([[33, 330_000]]);
    } finally {
      reader.close();
    }
  }, 300_000);
});
