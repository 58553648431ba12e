/**
 * `npm run bench -- history [--days 180]`: the lake's costs against the length of its
 * history, for a 170k-post account (bench/history-day.ts). Builds one day by a real publish,
 * then `days` days by cloning partitions (hard links, as the lake's layout holds them), and
 * measures beside the same at 1 day of history: a one-day sync publish and a sink publish of
 * 1,000 documents (time; bytes written, /proc/self/io), each at most 1.2x; the analyst
 * questions on the lake against the same data in native DuckDB tables (each at most 2x, or
 * under 100 ms); the data directory against the lake's live files after retention (at most
 * 1.3x). Takes a few minutes and a few GB in a temporary folder it removes (unless --keep).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import type { Row } from '../src/normalize/rows.js';
import { createViews } from '../src/warehouse/create-views.js';
import { lakePath, liveTargets, sweepVersions } from '../src/warehouse/lake/index.js';
import { openWriter, PUBLISH_SETTINGS } from '../src/warehouse/open-database.js';
import { publishStream } from '../src/warehouse/publish-stream.js';
import { publishSync } from '../src/warehouse/publish-sync.js';
import type { StreamBatch, SyncRunRecord } from '../src/warehouse/types.js';
import { publishedPath, sqlString } from '../src/warehouse/warehouse-paths.js';
import { flag, report, tempDir } from './bench-processes.js';
import { writeStagedDay } from './history-day.js';
import { benchSyncRun, cloneDays, datesAfter, fileBytes, writeBytes } from './lake-history.js';

const FIRST = '2026-01-01';
const SINK_DOCS = 1_000;
const REPEAT = 9;

function run(date: string): SyncRunRecord {
  return benchSyncRun(date, `bench-${date}-${Math.random()}`);
}

function documents(prefix: string, count: number, day: string, deliveryId: number): StreamBatch {
  const rows: Row[] = [];
  for (let i = 0; i < count; i += 1) {
    const id = `${prefix}-${i}`;
    rows.push({
      hook_id: 'h1',
      search_id: 7,
      search_type: 'editorial',
      document_id: id,
      published_date: `${day}T08:00:00Z`,
      indexed_date: `${day}T08:30:00Z`,
      url: `https://news.example/${id}`,
      source_name: 'Daily News',
      title: `A title of about sixty characters for document ${id}`,
      language: 'en',
      country: 'GB',
      received_at: `${day}T09:00:00Z`,
      valid_schema: true,
      document: JSON.stringify({ id, content: { title: id, body: 'b'.repeat(1200) } }),
    });
  }
  return {
    documents: rows,
    deliveries: [
      {
        delivery_id: deliveryId,
        hook_id: 'h1',
        received_at: `${day}T09:00:00Z`,
        documents: count,
        bytes: count * 2000,
      },
    ],
    hooks: [],
  };
}

async function measure<T>(work: () => Promise<T>): Promise<{ ms: number; bytes: number }> {
  const bytes = writeBytes();
  const started = performance.now();
  await work();
  return { ms: performance.now() - started, bytes: writeBytes() - bytes };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** Publishes the first day (sync + 20,000 sink documents); returns the data directory. */
async function firstDay(root: string, name: string, staged: string): Promise<string> {
  const dir = join(root, name);
  mkdirSync(dir, { recursive: true });
  await publishSync(dir, { stagingPath: staged, snapshotDate: FIRST, segments: ['all'], run: run(FIRST) });
  for (let i = 0; i < 10; i += 1) await publishStream(dir, documents(`first-${i}`, 2_000, FIRST, i + 1));
  return dir;
}

/** A one-day sync publish of `date` and sink publishes of 1,000 documents, at the lake's history. */
async function publishCosts(dir: string, staged: string, date: string, tag: string) {
  const sync = await measure(() =>
    publishSync(dir, { stagingPath: staged, snapshotDate: date, segments: ['all'], run: run(date) }),
  );
  const sinks: { ms: number; bytes: number }[] = [];
  for (let i = 0; i < REPEAT; i += 1)
    sinks.push(await measure(() => publishStream(dir, documents(`${tag}-${i}`, SINK_DOCS, date, 1_000 + i))));
  return {
    syncMs: sync.ms,
    syncBytes: sync.bytes,
    sinkMs: median(sinks.map((s) => s.ms)),
    sinkBytes: median(sinks.map((s) => s.bytes)),
  };
}

/** The analyst questions of the issue (README examples and the views on top). */
function questions(latest: string): Record<string, string> {
  const d = sqlString(latest);
  return {
    top_campaigns:
      "select c.name, m.total_engagement from latest_campaign_metrics m join campaigns c using (campaign_id) where segment = 'all' order by 2 desc limit 10",
    network_breakdown:
      'select * from network_breakdown where snapshot_date = (select max(snapshot_date) from campaign_network_metrics)',
    latest_network_breakdown: 'select * from latest_network_breakdown',
    leaderboard:
      'select * from influencer_leaderboard where engagement_rank <= 10 order by campaign_id, engagement_rank',
    stats_wide: `select * from campaign_network_stats_wide where snapshot_date = ${d}`,
    sales_vs_budget: `select campaign_id, currency, sum(sales_amount), sum(budget) from sales_vs_budget where snapshot_date = ${d} group by all`,
    trend_30d: `select campaign_id, snapshot_date, sum(engagement) from post_metrics where segment = 'all' and snapshot_date > ${d}::date - 30 group by all order by all`,
    latest_posts:
      "select * from latest_post_metrics where segment = 'all' order by engagement desc limit 100",
  };
}

async function timeQuestions(path: string, sqls: Record<string, string>): Promise<Record<string, number>> {
  const instance = await DuckDBInstance.create(path, { access_mode: 'READ_ONLY' });
  const connection = await instance.connect();
  const out: Record<string, number> = {};
  try {
    for (const [name, sql] of Object.entries(sqls)) {
      const times: number[] = [];
      for (let i = 0; i <= REPEAT; i += 1) {
        const started = performance.now();
        await connection.runAndReadAll(sql);
        if (i > 0) times.push(performance.now() - started); // the first one warms the OS cache
      }
      out[name] = median(times);
    }
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
  return out;
}

/** The lake's tables copied into native DuckDB tables, with the analyst views on top. */
async function nativeCopy(lakeDir: string, path: string): Promise<void> {
  const db = await openWriter(path, { ...PUBLISH_SETTINGS, memory_limit: '1GB', threads: '2' }, 122_880);
  const { connection } = db;
  try {
    await connection.run(`attach ${sqlString(publishedPath(lakeDir))} as lake (read_only)`);
    const reader = await connection.runAndReadAll(
      "select view_name, sql from duckdb_views() where database_name = 'lake' and schema_name = 'main' and sql ilike '%read_parquet(%'",
    );
    for (const [name] of reader.getRows())
      await connection.run(`create table main."${name}" as select * from lake.main."${name}"`);
    // The previous release's latest_<fact>: a window over the whole history.
    await connection.run('create schema lake_latest');
    const latest = await connection.runAndReadAll(
      `select view_name, (select count(*) from duckdb_columns() c where c.database_name = current_database() and c.schema_name = 'main'
                             and c.table_name = v.view_name and c.column_name = 'segment') as segmented
         from duckdb_views() v where database_name = 'lake' and schema_name = 'lake_latest'`,
    );
    for (const [name, segmented] of latest.getRows())
      await connection.run(
        `create view lake_latest."${name}" as select * from main."${name}" qualify snapshot_date = max(snapshot_date) over (${Number(segmented) ? 'partition by segment' : ''})`,
      );
    await connection.run('detach lake');
    await createViews(connection);
    await connection.run('checkpoint');
  } finally {
    db.close();
  }
}

/** Bytes under `dir` (du: each inode once, hard links are one file; folders included). */
function diskBytes(dir: string): number {
  return Number(execFileSync('du', ['-sb', dir], { encoding: 'utf8' }).split('\t')[0]);
}

/** Bytes of the files the lake's links make live now, each inode once. */
function liveBytes(lake: string): number {
  const seen = new Set<number>();
  let bytes = 0;
  for (const target of liveTargets(lake)) bytes += fileBytes(target, seen);
  return bytes;
}

const ratio = (a: number, b: number) => Math.round((a / b) * 100) / 100;

export async function runHistoryBench(args: string[]): Promise<Record<string, number | string>> {
  const days = flag(args, 'days', 180);
  const root = tempDir('history');
  try {
    const history = datesAfter(FIRST, days - 1);
    const next = datesAfter(FIRST, days)[days - 1]!;
    const stagedFirst = join(root, 'first.duckdb');
    const stagedNext = join(root, 'next.duckdb');
    process.stderr.write(`history: staging a 170k-post day (${FIRST}, ${next})\n`);
    await writeStagedDay(stagedFirst, FIRST);
    await writeStagedDay(stagedNext, next);

    process.stderr.write('history: 1 day of history\n');
    const short = await firstDay(root, 'short', stagedFirst);
    const one = await publishCosts(short, stagedNext, next, 'short');

    process.stderr.write(`history: ${days} days of history\n`);
    const long = await firstDay(root, 'long', stagedFirst);
    cloneDays(long, FIRST, history);
    const many = await publishCosts(long, stagedNext, next, 'long');

    process.stderr.write('history: analyst questions, lake vs native tables\n');
    const native = join(root, 'native.duckdb');
    await nativeCopy(long, native);
    const sqls = questions(next);
    const onLake = await timeQuestions(publishedPath(long), sqls);
    const onNative = await timeQuestions(native, sqls);

    process.stderr.write('history: retention after a day of sink publishes and a re-run\n');
    for (let i = 0; i < 30; i += 1) await publishStream(long, documents(`later-${i}`, 100, next, 5_000 + i));
    await publishSync(long, {
      stagingPath: stagedNext,
      snapshotDate: next,
      segments: ['all'],
      run: run(next),
    });
    const beforeSweep = diskBytes(long);
    const removed = sweepVersions(lakePath(long), 0);
    const dataDir = diskBytes(long);
    const dataFiles = fileBytes(long);
    const live = liveBytes(lakePath(long));

    const figures: Record<string, number | string> = {
      days,
      posts_per_day: 170_000,
      sync_publish_1d_ms: Math.round(one.syncMs),
      sync_publish_nd_ms: Math.round(many.syncMs),
      sync_publish_time_ratio: ratio(many.syncMs, one.syncMs),
      sync_publish_1d_mb: Math.round(one.syncBytes / 1e5) / 10,
      sync_publish_nd_mb: Math.round(many.syncBytes / 1e5) / 10,
      sync_publish_bytes_ratio: ratio(many.syncBytes, one.syncBytes),
      sink_publish_1d_ms: Math.round(one.sinkMs),
      sink_publish_nd_ms: Math.round(many.sinkMs),
      sink_publish_time_ratio: ratio(many.sinkMs, one.sinkMs),
      sink_publish_1d_kb: Math.round(one.sinkBytes / 1e3),
      sink_publish_nd_kb: Math.round(many.sinkBytes / 1e3),
      sink_publish_bytes_ratio: ratio(many.sinkBytes, one.sinkBytes),
    };
    for (const name of Object.keys(sqls)) {
      figures[`${name}_lake_ms`] = Math.round(onLake[name]! * 10) / 10;
      figures[`${name}_native_ms`] = Math.round(onNative[name]! * 10) / 10;
      figures[`${name}_ratio`] = ratio(onLake[name]!, onNative[name]!);
    }
    Object.assign(figures, {
      native_file_mb: Math.round(statSync(native).size / 1e6),
      data_dir_before_retention_mb: Math.round(beforeSweep / 1e6),
      versions_removed: removed,
      // Folders (4 KB each, one per version) are most of the difference here, where the
      // history's days are hard links of one day; a real history has ~days x the live bytes.
      data_dir_mb: Math.round(dataDir / 1e6),
      data_dir_files_mb: Math.round(dataFiles / 1e6),
      lake_live_mb: Math.round(live / 1e6),
      data_dir_files_vs_live: ratio(dataFiles, live),
      data_dir_vs_live: ratio(dataDir, live),
    });
    report(
      `history: ${days} days of a 170k-post account (targets: publishes <= 1.2x, questions <= 2x or < 100 ms, data dir <= 1.3x live)`,
      figures,
    );
    return figures;
  } finally {
    if (args.includes('--keep')) process.stderr.write(`history: kept ${root}\n`);
    else rmSync(root, { recursive: true, force: true });
  }
}
