/**
 * `npm run bench -- history [--days 1095] [--short-days 180] [--keep]`: the lake's costs
 * against the length of its history, for a 170k-post account (bench/history-day.ts). Builds
 * lakes of 1 day, `short-days` and `days` days (one day by a real publish, the others cloned
 * by `cloneDays`), then, asking through each lake's catalog as an analyst does (in a child
 * process with DuckDB's own allocator setting, as an analyst's client has: askAsAnalyst):
 * - every question (history-questions.ts) at both lengths: at `days`, at most 1.25x its time
 *   at `short-days` or under 25 ms; the README's examples and the analyst views under 100 ms;
 * - the questions over the whole history against native DuckDB tables (history-native.ts:
 *   a subset of the tables; post_metrics only if its measured copy fits the budget), at most 2x;
 * - a one-day sync publish and a sink publish of 1,000 documents at `days` against 1 day:
 *   at most 1.2x, time and bytes written;
 * - the data directory against the lake's live files after retention: at most 1.3x.
 * Prints its steps with the elapsed time and the questions' table on stderr; the last line of
 * stdout is one JSON object of figures, with `targets_met` and `targets_missed`. Refuses with
 * one line if the disk cannot hold a step. Removes its temporary folder unless --keep.
 */

import { execFileSync } from 'node:child_process';
import { rmSync, statSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { publishedPath } from '../src/warehouse/duckdb/warehouse-paths.js';
import { lakePath, liveTargets, sweepVersions } from '../src/warehouse/lake/testing.js';
import { publishStream } from '../src/warehouse/publish-stream.js';
import { flag, tempDir } from './bench-processes.js';
import { writeStagedDay } from './history-day.js';
import { DiskPeak, DiskSpaceError, diskBytes, freeBytes, requireFree } from './history-disk.js';
import {
  DATA_DIR_RATIO,
  type Figures,
  publishFigures,
  questionFigures,
  questionTable,
  ratio,
} from './history-figures.js';
import { NATIVE_BUDGET, NATIVE_TABLES, nativeCopy, probePostMetricsCopy } from './history-native.js';
import { documents, FIRST, firstDay, publishCosts, publishDay } from './history-publish.js';
import { askAsAnalyst, historyQuestions, type Question } from './history-questions.js';
import { cloneDays, datesAfter, fileBytes } from './lake-history.js';

/** The long history by default: three years, the length the issue's targets are set at. */
export const DEFAULT_DAYS = 1_095;
/** The short history the long one is compared with: six months, as the issue measured. */
export const DEFAULT_SHORT_DAYS = 180;
/**
 * Disk before the first lakes exist (three staged days and three first days of the 170k-post
 * account, ~0.2 GB each at most, rounded up); the long lake's need is then measured on the
 * short one.
 */
const START_NEED_BYTES = 1.5e9;

/** Bytes of the files the lake's links make live now, each inode once. */
function liveBytes(lake: string): number {
  const seen = new Set<number>();
  let bytes = 0;
  for (const target of liveTargets(lake)) bytes += fileBytes(target, seen);
  return bytes;
}

const sqlsOf = (questions: Record<string, Question>) =>
  Object.fromEntries(Object.entries(questions).map(([name, q]) => [name, q.sql]));

/** A lake of `days` days ending with a real publish of `next` (its costs measured). */
async function buildLake(
  root: string,
  name: string,
  days: number,
  staged: { first: string; next: string },
  next: string,
) {
  const dir = await firstDay(root, name, staged.first);
  cloneDays(dir, FIRST, datesAfter(FIRST, days - 1));
  // The clone's gigabytes reach the disk first: their writeback would otherwise run under the
  // publishes measured next (a one-day publish took 1.31x, a sink publish 1.47x, right after
  // three years were cloned).
  execFileSync('sync');
  const costs = await publishCosts(dir, staged.next, next, name);
  return { dir, costs };
}

export async function runHistoryBench(args: string[]): Promise<Figures> {
  const days = flag(args, 'days', DEFAULT_DAYS);
  const shortDays = flag(args, 'short-days', DEFAULT_SHORT_DAYS);
  if (!Number.isInteger(days) || !Number.isInteger(shortDays) || shortDays < 2 || days <= shortDays) {
    process.stderr.write(
      `history: --days (${days}) must be an integer above --short-days (${shortDays}), itself at least 2\n`,
    );
    process.exitCode = 2;
    return {};
  }
  const root = tempDir('history', args.includes('--keep'));
  const started = performance.now();
  const loadStart = loadavg()[0]!;
  const disk = new DiskPeak(root);
  const step = (what: string) => {
    const s = Math.round((performance.now() - started) / 1000);
    process.stderr.write(`history [${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}] ${what}\n`);
  };
  try {
    const freeStart = freeBytes(root);
    requireFree(root, START_NEED_BYTES, 'the staged days and first lakes');
    const nextShort = datesAfter(FIRST, shortDays)[shortDays - 1]!;
    const next = datesAfter(FIRST, days)[days - 1]!;
    const staged = {
      first: join(root, 'first.duckdb'),
      short: join(root, 'short.duckdb'),
      long: join(root, 'long.duckdb'),
    };
    step(`staging 170k-post days (${FIRST}, ${nextShort}, ${next})`);
    await writeStagedDay(staged.first, FIRST);
    await writeStagedDay(staged.short, nextShort);
    await writeStagedDay(staged.long, next);

    step('1 day of history: publishes');
    const oneDir = await firstDay(root, 'one', staged.first);
    const one = await publishCosts(oneDir, staged.long, next, 'one');
    const oneBytes = disk.sample();

    step(`${shortDays} days of history: cloning, publishes`);
    const short = await buildLake(
      root,
      `d${shortDays}`,
      shortDays,
      { first: staged.first, next: staged.short },
      nextShort,
    );
    // The layout's real cost of a day (hard links or not), measured on the short lake.
    const perDay = Math.max(0, disk.sample() - oneBytes) / shortDays;
    requireFree(
      root,
      perDay * days,
      `a lake of ${days} days (measured ${Math.round(perDay / 1e3)} KB a day)`,
    );

    step(`${days} days of history: cloning, publishes`);
    const long = await buildLake(root, `d${days}`, days, { first: staged.first, next: staged.long }, next);
    disk.sample();

    step('native tables: measuring a copy of post_metrics');
    const probe = await probePostMetricsCopy(long.dir, join(root, 'probe.duckdb'), next, days);
    rmSync(join(root, 'probe.duckdb'), { force: true });
    const copyPosts =
      probe.seconds <= NATIVE_BUDGET.seconds && probe.bytes <= NATIVE_BUDGET.freeShare * freeBytes(root);
    const nativeTables = copyPosts ? [...NATIVE_TABLES, 'post_metrics'] : NATIVE_TABLES;
    step(`native tables: copying ${nativeTables.join(', ')}`);
    const native = join(root, 'native.duckdb');
    const copyStarted = performance.now();
    await nativeCopy(long.dir, native, nativeTables);
    const copyS = (performance.now() - copyStarted) / 1000;
    disk.sample();

    step(`questions at ${shortDays} and ${days} days, and on native tables`);
    const shortQuestions = historyQuestions(nextShort);
    const longQuestions = historyQuestions(next);
    const nativeSqls = Object.fromEntries(
      Object.entries(longQuestions)
        .filter(([, q]) => q.wholeHistory && q.tables!.every((t) => nativeTables.includes(t)))
        .map(([name, q]) => [name, q.sql]),
    );
    // The clones' and the copy's gigabytes reach the disk first: their writeback would otherwise
    // run under the first questions.
    execFileSync('sync');
    const [onShort, onLong, onNative] = await askAsAnalyst([
      { path: publishedPath(short.dir), sqls: sqlsOf(shortQuestions) },
      { path: publishedPath(long.dir), sqls: sqlsOf(longQuestions) },
      { path: native, sqls: nativeSqls },
    ]);
    // The comparison holds only if both answer the same.
    const differ = Object.keys(nativeSqls).filter(
      (name) => onNative!.answers[name] !== onLong!.answers[name],
    );
    const questions = questionFigures(
      longQuestions,
      { short: onShort!.ms, long: onLong!.ms, native: onNative!.ms },
      shortDays,
      days,
    );

    step('retention after a day of sink publishes and a re-run');
    for (let i = 0; i < 30; i += 1)
      await publishStream(long.dir, documents(`later-${i}`, 100, next, 5_000 + i));
    await publishDay(long.dir, staged.long, next);
    const beforeSweep = diskBytes(long.dir);
    const removed = sweepVersions(lakePath(long.dir), 0);
    const dataDir = diskBytes(long.dir);
    const dataFiles = fileBytes(long.dir);
    const live = liveBytes(lakePath(long.dir));
    disk.sample();

    const publishes = publishFigures(one, long.costs, short.costs, shortDays);
    const figures: Figures = {
      days,
      short_days: shortDays,
      posts_per_day: 170_000,
      ...questions.figures,
      ...publishes,
      native_tables: nativeTables.join(','),
      native_answers_same: differ.length === 0,
      native_answers_differ: differ.join(','),
      native_post_metrics: copyPosts,
      native_post_metrics_copy_s_estimate: Math.round(probe.seconds),
      native_post_metrics_mb_estimate: Math.round(probe.bytes / 1e6),
      native_copy_s: Math.round(copyS),
      native_file_mb: Math.round(statSync(native).size / 1e6),
      data_dir_before_retention_mb: Math.round(beforeSweep / 1e6),
      versions_removed: removed,
      // Folders (4 KB each, one per version) can be most of the difference here, where the
      // history's days are clones of one day; a real history has ~days x the live bytes.
      data_dir_mb: Math.round(dataDir / 1e6),
      data_dir_files_mb: Math.round(dataFiles / 1e6),
      lake_live_mb: Math.round(live / 1e6),
      data_dir_files_vs_live: ratio(dataFiles, live),
      data_dir_vs_live: ratio(dataDir, live),
      data_dir_ok: ratio(dataFiles, live) <= DATA_DIR_RATIO,
    };
    const flags = [
      ...questions.flags,
      ...Object.keys(publishes).filter((k) => k.endsWith('_ok')),
      'data_dir_ok',
      'native_answers_same',
    ];
    const missed = flags.filter((k) => figures[k] === false);
    Object.assign(figures, {
      disk_free_start_gb: Math.round(freeStart / 1e8) / 10,
      disk_peak_mb: Math.round(disk.peak / 1e6),
      run_s: Math.round((performance.now() - started) / 1000),
      load_start: Math.round(loadStart * 100) / 100,
      load_end: Math.round(loadavg()[0]! * 100) / 100,
      targets_met: missed.length === 0,
      targets_missed: missed.join(','),
    });
    step('done');
    process.stderr.write(`\n${questionTable(longQuestions, figures, shortDays, days)}\n`);
    process.stdout.write(
      `\nhistory: ${shortDays} and ${days} days of a 170k-post account; targets ${missed.length ? `missed: ${missed.join(', ')}` : 'met'}\n`,
    );
    process.stdout.write(`${JSON.stringify(figures)}\n`);
    return figures;
  } catch (error) {
    if (!(error instanceof DiskSpaceError)) throw error;
    process.stderr.write(`history: ${error.message}\n`);
    process.exitCode = 1;
    return {};
  } finally {
    if (args.includes('--keep')) process.stderr.write(`history: kept ${root}\n`);
    else rmSync(root, { recursive: true, force: true });
  }
}
