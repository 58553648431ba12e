import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cloneDays, datesAfter } from '../../bench/lake-history.js';
import { sqlString } from '../../src/warehouse/duckdb/warehouse-paths.js';
import { lakePath, maintainLake, PERIOD_ROW_GROUP_SIZE } from '../../src/warehouse/lake/testing.js';
import { liveFile, liveFiles } from '../helpers/lake-files.js';
import { queryRows as rows } from '../helpers/query-rows.js';
import { type ReadOnlyCatalog, readOnlyCatalog } from '../helpers/read-only-catalog.js';
import { removableTempDir } from '../helpers/temp-dir.js';
import { stageAndPublish } from '../helpers/warehouse-temp.js';

const PER_DATE =
  'select snapshot_date::varchar, segment, count(*)::integer, sum(engagement)::bigint from post_metrics group by all order by all';
const LATEST =
  'select snapshot_date::varchar, segment, count(*)::integer from latest_post_metrics group by all order by all';

describe('closed months of a fact table', () => {
  const data = removableTempDir('cw-lake-months-');
  let held: ReadOnlyCatalog | undefined;
  afterAll(() => {
    held?.close();
    data.remove();
  });
  const dir = join(data.dir, 'lake-months');

  it('are consolidated by the upkeep once a later month has a snapshot; a held connection sees the same answers', async () => {
    await stageAndPublish(dir, '2026-10-30', ['all', 'vip'], { posts: 5 });
    await stageAndPublish(dir, '2026-10-31', ['all', 'vip'], { runId: 'r2', posts: 4 });
    // October is still the newest month: nothing to consolidate.
    expect((await maintainLake(dir)).closedPeriodFiles).toEqual({});
    await stageAndPublish(dir, '2026-11-01', ['all', 'vip'], { runId: 'r3', posts: 3 });
    expect([...liveFiles(dir).keys()].sort()).toEqual([
      '2026-10-30~all',
      '2026-10-30~vip',
      '2026-10-31~all',
      '2026-10-31~vip',
      '2026-11-01~all',
      '2026-11-01~vip',
    ]);

    // A BI tool holds a connection from before the consolidation.
    held = await readOnlyCatalog(dir);
    const before = await rows(held.connection, PER_DATE);
    const latestBefore = await rows(held.connection, LATEST);
    expect(before).toHaveLength(6);

    const result = await maintainLake(dir);
    expect(result.closedPeriodFiles.post_metrics).toBe(2); // October, per segment
    expect([...liveFiles(dir).keys()].sort()).toEqual([
      '2026-10~all',
      '2026-10~vip',
      '2026-11-01~all',
      '2026-11-01~vip',
    ]);
    // At its next query, no reconnect: the same rows, now from the month files.
    expect(await rows(held.connection, PER_DATE)).toEqual(before);
    expect(await rows(held.connection, LATEST)).toEqual(latestBefore);
    // The month file is sorted by date (what lets its row groups' statistics prune).
    expect(
      await rows(
        held.connection,
        `select snapshot_date::varchar from read_parquet(${sqlString(liveFile(dir, '2026-10~all'))})`,
      ),
    ).toEqual([...Array(5).fill(['2026-10-30']), ...Array(4).fill(['2026-10-31'])]);
    // Done once: the next upkeep has nothing to consolidate.
    expect((await maintainLake(dir)).closedPeriodFiles).toEqual({});
  });

  it('a re-run of a date in a closed month replaces that date in the month file (not doubled)', async () => {
    const before = liveFiles(dir);
    await stageAndPublish(dir, '2026-10-30', ['all'], { runId: 'r4', posts: 2 });
    const after = liveFiles(dir);
    expect([...after.keys()].sort()).toEqual([...before.keys()].sort());
    // The `all` month file was rewritten; the other segment's and November's were hard-linked.
    expect(after.get('2026-10~all')).not.toBe(before.get('2026-10~all'));
    for (const label of ['2026-10~vip', '2026-11-01~all', '2026-11-01~vip'])
      expect(after.get(label), label).toBe(before.get(label));
    expect(await rows(held!.connection, PER_DATE)).toEqual([
      ['2026-10-30', 'all', 2, expect.anything()],
      ['2026-10-30', 'vip', 5, expect.anything()],
      ['2026-10-31', 'all', 4, expect.anything()],
      ['2026-10-31', 'vip', 4, expect.anything()],
      ['2026-11-01', 'all', 3, expect.anything()],
      ['2026-11-01', 'vip', 3, expect.anything()],
    ]);
    // The latest snapshot is untouched (a closed month is never a segment's latest here).
    expect(await rows(held!.connection, LATEST)).toEqual([
      ['2026-11-01', 'all', 3],
      ['2026-11-01', 'vip', 3],
    ]);
  });

  it('a publish of a new day hard-links every other file, month files included', async () => {
    const before = liveFiles(dir);
    await stageAndPublish(dir, '2026-11-02', ['all'], { runId: 'r5', posts: 3 });
    const after = liveFiles(dir);
    for (const [label, ino] of before) expect(after.get(label), label).toBe(ino);
    expect(after.has('2026-11-02~all')).toBe(true);
  });
});

describe('closed ten days of the open month', () => {
  const data = removableTempDir('cw-lake-ten-days-');
  afterAll(() => data.remove());

  it('are consolidated once a later ten days have a snapshot, then into their month; a segment whose latest is in them keeps it', async () => {
    const dir = data.dir;
    await stageAndPublish(dir, '2026-11-09', ['all', 'vip'], { posts: 5 });
    await stageAndPublish(dir, '2026-11-10', ['all', 'vip'], { runId: 'r2', posts: 4 });
    expect((await maintainLake(dir)).closedPeriodFiles).toEqual({});
    // `vip` has no snapshot after the 10th: its latest stays in the closed ten days.
    await stageAndPublish(dir, '2026-11-11', ['all'], { runId: 'r3', posts: 3 });
    const held = await readOnlyCatalog(dir);
    try {
      const before = await rows(held.connection, PER_DATE);
      const latestBefore = await rows(held.connection, LATEST);
      expect(latestBefore).toEqual([
        ['2026-11-10', 'vip', 4],
        ['2026-11-11', 'all', 3],
      ]);

      expect((await maintainLake(dir)).closedPeriodFiles.post_metrics).toBe(2); // days 1 to 10, per segment
      expect([...liveFiles(dir).keys()].sort()).toEqual([
        '2026-11-11~all',
        '2026-11-D1~all',
        '2026-11-D1~vip',
      ]);
      expect(await rows(held.connection, PER_DATE)).toEqual(before);
      expect(await rows(held.connection, LATEST)).toEqual(latestBefore);
      expect(
        await rows(
          held.connection,
          `select snapshot_date::varchar from read_parquet(${sqlString(liveFile(dir, '2026-11-D1~vip'))})`,
        ),
      ).toEqual([...Array(5).fill(['2026-11-09']), ...Array(4).fill(['2026-11-10'])]);
      expect((await maintainLake(dir)).closedPeriodFiles).toEqual({});

      // A re-run of the 10th for `vip` rewrites its ten-day file, and its latest follows.
      const files = liveFiles(dir);
      await stageAndPublish(dir, '2026-11-10', ['vip'], { runId: 'r4', posts: 2 });
      expect(liveFiles(dir).get('2026-11-D1~vip')).not.toBe(files.get('2026-11-D1~vip'));
      expect(liveFiles(dir).get('2026-11-D1~all')).toBe(files.get('2026-11-D1~all'));
      expect(await rows(held.connection, LATEST)).toEqual([
        ['2026-11-10', 'vip', 2],
        ['2026-11-11', 'all', 3],
      ]);
      // The latest day file written from the ten-day file holds the table's columns only: not
      // the `last_date` DuckDB would read from its folder's name.
      const latestGlob = sqlString(`${lakePath(dir)}/_latest/post_metrics/*.parquet`);
      expect(
        await rows(
          held.connection,
          `select file_name from parquet_schema(${latestGlob}) where name = 'last_date'`,
        ),
      ).toEqual([]);

      // December closes November: its ten-day files and its days become one month file, by date.
      await stageAndPublish(dir, '2026-12-01', ['all'], { runId: 'r5', posts: 1 });
      expect((await maintainLake(dir)).closedPeriodFiles.post_metrics).toBe(2);
      expect([...liveFiles(dir).keys()].sort()).toEqual(['2026-11~all', '2026-11~vip', '2026-12-01~all']);
      expect(
        await rows(
          held.connection,
          `select snapshot_date::varchar, count(*)::integer from read_parquet(${sqlString(liveFile(dir, '2026-11~all'))})
          group by all order by min(file_row_number)`,
        ),
      ).toEqual([
        ['2026-11-09', 5],
        ['2026-11-10', 4],
        ['2026-11-11', 3],
      ]);
      expect(await rows(held.connection, PER_DATE)).toEqual([
        ['2026-11-09', 'all', 5, expect.anything()],
        ['2026-11-09', 'vip', 5, expect.anything()],
        ['2026-11-10', 'all', 4, expect.anything()],
        ['2026-11-10', 'vip', 2, expect.anything()],
        ['2026-11-11', 'all', 3, expect.anything()],
        ['2026-12-01', 'all', 1, expect.anything()],
      ]);
    } finally {
      held.close();
    }
  });
});

describe('row groups of a month file', () => {
  const data = removableTempDir('cw-lake-prune-');
  afterAll(() => data.remove());

  it('hold disjoint date ranges, so a one-day question reads only the groups that may hold the day', async () => {
    const dir = data.dir;
    // 10,000 posts a day: January (31 days, 310,000 rows) fills two row groups of its month file.
    await stageAndPublish(dir, '2026-01-01', ['all'], { posts: 10_000 });
    cloneDays(dir, '2026-01-01', datesAfter('2026-01-01', 31)); // to 2026-02-01: January closed
    expect([...liveFiles(dir).keys()].sort()).toEqual(['2026-01~all', '2026-02-01~all']);
    const catalog = await readOnlyCatalog(dir);
    const { connection } = catalog;
    try {
      const file = liveFile(dir, '2026-01~all');
      const groups = await rows(
        connection,
        `select row_group_id, row_group_num_rows, stats_min, stats_max from parquet_metadata(${sqlString(file)})
          where path_in_schema = 'snapshot_date' order by row_group_id`,
      );
      expect(groups).toHaveLength(2);
      // At least PERIOD_ROW_GROUP_SIZE rows (a writer with two threads fills a group from whole batches).
      expect(Number(groups[0]![1])).toBeGreaterThanOrEqual(PERIOD_ROW_GROUP_SIZE);
      expect(Number(groups[0]![1])).toBeLessThan(PERIOD_ROW_GROUP_SIZE + 10_000);
      // Sorted by date: the first group ends where (or before) the second starts.
      expect(String(groups[0]![3]) <= String(groups[1]![2])).toBe(true);
      // A day of the first group's range lies outside the second's: the reader skips it.
      const day = '2026-01-05';
      const holding = groups.filter(([, , min, max]) => String(min) <= day && day <= String(max));
      expect(holding).toHaveLength(1);
      expect(
        (
          await rows(connection, `select count(*)::integer from post_metrics where snapshot_date = '${day}'`)
        )[0],
      ).toEqual([10_000]);
    } finally {
      catalog.close();
    }
  }, 300_000);
});
