import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, rmSync, symlinkSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { asyncBufferFromFile, parquetReadObjects } from 'hyparquet';
import { describe, expect, it } from 'vitest';
import { cloneDays, datesAfter, writeBytes } from '../../bench/lake-history.js';
import type { Row } from '../../src/normalize/rows.js';
import { catalogIsCurrent, liveTargets, sweepVersions } from '../../src/warehouse/lake/testing.js';
import { publishStream } from '../../src/warehouse/publish-stream.js';
import { publishSync } from '../../src/warehouse/publish-sync.js';
import { queryReadOnly } from '../../src/warehouse/read/query-read-only.js';
import { openStaging } from '../../src/warehouse/staging/open-staging.js';
import type { StreamBatch } from '../../src/warehouse/types.js';
import { ensureBuiltCli } from '../helpers/built-cli.js';
import { tempDirEachTest } from '../helpers/temp-dir.js';
import { sampleRun, sampleUnitRows } from '../helpers/warehouse-rows.js';
import { streamDocument } from '../helpers/warehouse-stream-rows.js';
import { stageAndPublish } from '../helpers/warehouse-temp.js';

const run = promisify(execFile);

async function scalar(dir: string, sql: string): Promise<unknown> {
  return (await queryReadOnly(dir, sql)).rows[0]![0];
}

/** A day of two campaigns of `posts` posts for segments all and vip, staged (not published). */
async function stageDay(dir: string, date: string, posts: number): Promise<string> {
  const staging = await openStaging(dir, `day-${date}`);
  for (const segment of ['all', 'vip'])
    for (const campaignId of ['c1', 'c2'])
      await staging.append(sampleUnitRows({ snapshotDate: date, segment, campaignId, posts }));
  await staging.close();
  return staging.path;
}

/** What `publish` wrote, by both of the kernel's counters (see writeBytes). */
interface Written {
  readonly wchar: number;
  readonly storage: number;
}

async function bytesWritten(publish: () => Promise<unknown>): Promise<Written> {
  const wchar = writeBytes('wchar');
  const storage = writeBytes('write_bytes');
  await publish();
  return { wchar: writeBytes('wchar') - wchar, storage: writeBytes('write_bytes') - storage };
}

/** Bytes written by a sync publish of `date` (staged beforehand). */
async function syncPublishBytes(dir: string, date: string, posts: number): Promise<Written> {
  const stagingPath = await stageDay(dir, date, posts);
  return bytesWritten(() =>
    publishSync(dir, {
      stagingPath,
      snapshotDate: date,
      segments: ['all', 'vip'],
      run: sampleRun(date, date),
    }),
  );
}

function documents(prefix: string, count: number, day: string): StreamBatch {
  const rows: Row[] = [];
  for (let i = 0; i < count; i += 1)
    rows.push(streamDocument('h1', `${prefix}-${i}`, `${day}T08:00:00Z`, `${day}T09:00:00Z`));
  return {
    documents: rows,
    deliveries: [
      {
        delivery_id: Date.parse(`${day}T00:00:00Z`) / 1000,
        hook_id: 'h1',
        received_at: `${day}T09:00:00Z`,
        documents: count,
        bytes: 1,
      },
    ],
    hooks: [],
  };
}

async function streamPublishBytes(dir: string, day: string): Promise<Written> {
  const batch = documents(`new-${day}`, 1_000, day);
  return bytesWritten(() => publishStream(dir, batch));
}

describe('the lake on disk', () => {
  const data = tempDirEachTest('cw-lake-');

  it('a publish writes about the same bytes with a long history as with one day (/proc/self/io)', async () => {
    const short = join(data.dir, 'short');
    const long = join(data.dir, 'long');
    for (const dir of [short, long]) {
      mkdirSync(dir);
      await syncPublishBytes(dir, '2026-01-01', 300);
      await publishStream(dir, documents('first', 1_000, '2026-01-01'));
    }
    const history = datesAfter('2026-01-01', 90);
    cloneDays(long, '2026-01-01', history);
    expect(await scalar(long, 'select count(distinct snapshot_date) from post_metrics')).toBe(91);
    // Each the median of five publishes (five new days). The assertion is on `wchar`, every
    // byte the publish handed to write(2): exact, whatever else the machine does. Its
    // `write_bytes` (what reached storage) is logged beside it, not asserted: the kernel
    // counts a page when it is dirtied, not again while it stays dirty, again after a
    // writeback, and other processes' I/O moves the writebacks, so beside parallel test
    // files one publish read from 0.45x to 2.7x of what it wrote (the median of five, 0.44x).
    const days = ['2026-04-02', '2026-04-03', '2026-04-04', '2026-04-05', '2026-04-06'];
    const median = async (measure: (day: string) => Promise<Written>) => {
      const all: Written[] = [];
      for (const day of days) all.push(await measure(day));
      const middle = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
      return { wchar: middle(all.map((w) => w.wchar)), storage: middle(all.map((w) => w.storage)) };
    };
    const sync = {
      short: await median((day) => syncPublishBytes(short, day, 300)),
      long: await median((day) => syncPublishBytes(long, day, 300)),
    };
    const sink = {
      short: await median((day) => streamPublishBytes(short, day)),
      long: await median((day) => streamPublishBytes(long, day)),
    };
    console.info(
      `lake publish bytes, 1 day vs 91 days: sync ${JSON.stringify(sync)}, sink ${JSON.stringify(sink)}`,
    );
    expect(sync.short.wchar).toBeGreaterThan(30_000);
    expect(sync.long.wchar / sync.short.wchar).toBeLessThanOrEqual(1.25);
    expect(sink.short.wchar).toBeGreaterThan(50_000);
    expect(sink.long.wchar / sink.short.wchar).toBeLessThanOrEqual(1.25);
    expect(await scalar(long, 'select count(*) from stream_documents')).toBe(96_000);
    // Twelve publishes and the history's month files: beyond the default minute on a loaded machine.
  }, 180_000);

  it('retention removes only version directories no link points to, once older than the period', async () => {
    await stageAndPublish(data.dir, '2026-11-20', ['all', 'vip']);
    await stageAndPublish(data.dir, '2026-11-20', ['vip'], { runId: 'r2' }); // replaces a version
    await publishStream(data.dir, documents('a', 10, '2026-11-20'));
    await publishStream(data.dir, documents('b', 10, '2026-11-20'));
    const lake = join(data.dir, 'lake');
    const orphan = join(lake, '_versions', 'post_metrics', '2026-11-19.orphan');
    mkdirSync(orphan, { recursive: true });
    const counts = async () =>
      (
        await queryReadOnly(
          data.dir,
          'select (select count(*) from post_metrics), (select count(*) from stream_documents), (select count(*) from latest_post_stats), (select count(*) from posts)',
        )
      ).rows[0];
    const before = await counts();
    const live = liveTargets(lake);
    const all = () =>
      readdirSync(join(lake, '_versions')).flatMap((t) =>
        readdirSync(join(lake, '_versions', t)).map((v) => join(lake, '_versions', t, v)),
      );
    const replaced = all().filter((path) => !live.has(path));
    expect(replaced.length).toBeGreaterThan(5);
    // Within the period nothing goes, not even the orphan.
    expect(sweepVersions(lake, 3_600_000)).toBe(0);
    const old = new Date(Date.now() - 2 * 3_600_000);
    utimesSync(orphan, old, old);
    expect(sweepVersions(lake, 3_600_000)).toBe(1);
    expect(existsSync(orphan)).toBe(false);
    expect(sweepVersions(lake, 0)).toBe(replaced.length - 1);
    expect(new Set(all())).toEqual(live);
    expect(await counts()).toEqual(before);
  });

  it("an independent Parquet reader (hyparquet) finds the rows of the post_metrics view in a day's files", async () => {
    await stageAndPublish(data.dir, '2026-11-20', ['all', 'vip'], { posts: 6 });
    await stageAndPublish(data.dir, '2026-11-21', ['all'], { runId: 'r2', posts: 5 });
    // The table's folder: a file per day and segment, named `<date>~<segment>.<vid>.parquet`,
    // each holding its snapshot_date, in the folder `last_date=<date>` (docs/lake.md).
    const folder = join(data.dir, 'lake', 'post_metrics', 'last_date=2026-11-20');
    const fromFiles: Record<string, unknown>[] = [];
    for (const file of readdirSync(folder).filter((f) => f.startsWith('2026-11-20~'))) {
      const rows = (await parquetReadObjects({
        file: await asyncBufferFromFile(join(folder, file)),
      })) as Record<string, unknown>[];
      // hyparquet reads a DATE as a JS Date (UTC midnight).
      fromFiles.push(
        ...rows.map((row) => ({
          ...row,
          snapshot_date: (row.snapshot_date as Date).toISOString().slice(0, 10),
        })),
      );
    }
    const view = await queryReadOnly(
      data.dir,
      "select * replace (snapshot_date::varchar as snapshot_date) from post_metrics where snapshot_date = '2026-11-20'",
    );
    const fromView = view.rows.map((row) => Object.fromEntries(view.columns.map((c, i) => [c, row[i]])));
    const normal = (rows: Record<string, unknown>[]) =>
      rows.map((row) => JSON.stringify(row, (_, v) => (typeof v === 'bigint' ? Number(v) : v))).sort();
    expect(fromView).toHaveLength(12);
    expect(normal(fromFiles)).toEqual(normal(fromView));
  });

  it('a moved data directory works after `catalog rebuild`, and after the next run', async () => {
    const cli = ensureBuiltCli();
    const first = join(data.dir, 'first');
    await stageAndPublish(first, '2026-11-20', ['all', 'vip']);
    await publishStream(first, documents('a', 10, '2026-11-20'));
    const moved = join(data.dir, 'moved');
    cpSync(first, moved, { recursive: true, verbatimSymlinks: true });
    rmSync(first, { recursive: true });
    // status changes no file: it says the catalog points elsewhere instead of failing on it.
    const status = await run(process.execPath, [cli, 'status', '--data-dir', moved]);
    expect(status.stdout).toMatch(/^catalog: .*run `campaign-warehouse catalog rebuild`/m);
    const { stdout } = await run(process.execPath, [cli, 'catalog', 'rebuild', '--data-dir', moved]);
    expect(stdout).toMatch(/^catalog rebuilt: .*warehouse\.duckdb$/m);
    expect(await scalar(moved, 'select count(*) from latest_post_metrics')).toBe(8);
    expect(await scalar(moved, 'select count(*) from stream_documents')).toBe(10);
    // Copied again (an analyst's laptop): the next publish rewrites the catalog itself.
    const again = join(data.dir, 'again');
    cpSync(moved, again, { recursive: true, verbatimSymlinks: true });
    rmSync(moved, { recursive: true });
    await publishStream(again, documents('b', 10, '2026-11-21'));
    expect(await scalar(again, 'select count(*) from stream_documents')).toBe(20);
    expect(await scalar(again, 'select count(*) from post_metrics')).toBe(8);
    // The same directory reached through a symlink is not a moved one: no rewrite.
    const alias = join(data.dir, 'alias');
    symlinkSync(again, alias);
    const rebuilt = await run(process.execPath, [cli, 'query', '--data-dir', alias, 'select 1']);
    expect(rebuilt.stdout).not.toMatch(/catalog/);
    expect(catalogIsCurrent(alias)).toBe(true);
    expect(catalogIsCurrent(again)).toBe(true);
  });
});
