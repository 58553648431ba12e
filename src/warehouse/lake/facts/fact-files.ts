import { join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { sqlString } from '../../duckdb/warehouse-paths.js';
import {
  comparePeriods,
  isDay,
  isYear,
  labelOf,
  nextTenDays,
  parseFactFile,
  periodEnd,
  periodStart,
  periodsOf,
  SCHEMA_FILE,
  tenDaysOf,
} from '../core/lake-layout.js';
import { type LinkedVersion, linkedVersion } from '../core/link-target.js';

/** A data file of a fact table's live version: a day's, closed ten days', a closed month's or a closed year's rows of one segment. */
export interface FactFile {
  /** Its place in the version: `last_date=<date>/<period>~<segment>.<vid>.parquet`. */
  readonly name: string;
  /** Absolute, in the version directory (stays valid after the table's link is swapped). */
  readonly path: string;
  /** YYYY-MM-DD (a day file), YYYY-MM-D1..D3 (closed ten days'), YYYY-MM (a closed month's) or YYYY (a closed year's). */
  readonly period: string;
  readonly segment: string;
}

/** A fact table's live version: its folder, data files (by period) and schema anchor. */
export interface FactVersion {
  readonly version: LinkedVersion;
  readonly files: readonly FactFile[];
  readonly anchor: string | undefined;
}

/** The table's live version as its link has it now (one readlink, one readdir per folder); undefined without one. */
export function factVersion(lake: string, table: string): FactVersion | undefined {
  const version = linkedVersion(join(lake, table));
  return version && factVersionOf(version);
}

/** A fact table's version folder read as its data files and anchor (a live one, or one being written). */
export function factVersionOf(version: LinkedVersion): FactVersion {
  const files: FactFile[] = [];
  let anchor: string | undefined;
  for (const name of version.files) {
    const parsed = parseFactFile(name);
    if (parsed) files.push({ name, path: join(version.dir, name), ...parsed });
    else if (labelOf(name) === SCHEMA_FILE) anchor = join(version.dir, name);
  }
  return { version, files, anchor };
}

/** Whether a fact file holds one day, rather than closed ten days', a month's or a year's several dates. */
export function isDayFile(file: FactFile): boolean {
  return isDay(file.period);
}

/**
 * The newest period among a fact table's files, by comparePeriods (its newest snapshot date,
 * or a compactFiles table's open ten days): ten days, months and years before its own are
 * closed (closedPeriodOf). From the data, not the clock: a month closes when a snapshot of a
 * later one was published, so a catch-up of a month's last days run after midnight still
 * lands as day files, a backfill of old dates is consolidated at the next upkeep, and the same lake
 * consolidates the same way whenever the upkeep runs.
 */
export function newestPeriod(files: readonly FactFile[]): string | undefined {
  let newest: string | undefined;
  for (const file of files)
    if (newest === undefined || comparePeriods(file.period, newest) > 0) newest = file.period;
  return newest;
}

/**
 * The period a table's files are closed against (closedPeriodOf's `newest`): newestPeriod,
 * but when a compactFiles table's newest file is a year's (re-runs removed every row of its
 * open ten days, whose file went with them), the ten days after that year's newest date, read
 * from its files: the year's file holds closed ten days only, so a later date gets a ten days'
 * file again rather than a rewrite of the year, and a date of the year's last ten days goes
 * back into the year's file, never beside it.
 */
export async function newestOpenPeriod(
  connection: DuckDBConnection,
  compact: boolean,
  files: readonly FactFile[],
): Promise<string | undefined> {
  const newest = newestPeriod(files);
  if (!compact || newest === undefined || !isYear(newest)) return newest;
  const paths = files.filter((f) => f.period === newest).map((f) => f.path);
  const reader = await connection.runAndReadAll(
    `select strftime(max(snapshot_date), '%Y-%m-%d') from ${readFactFile(paths)}`,
  );
  const date = reader.getRows()[0]?.[0];
  return date === null || date === undefined ? newest : nextTenDays(tenDaysOf(String(date)));
}

/**
 * The file among `files` (a live version's, read once for several dates or segments) holding
 * `date`'s rows of `segment`, if there is one: its day file, or its ten days', month's or
 * year's file (which holds other dates too: read it through factRows, filtered by date).
 */
export function fileHolding(files: readonly FactFile[], date: string, segment: string): string | undefined {
  return firstFileOf(files, periodsOf(date), segment)?.path;
}

/** The file of `segment` among `files` of the first of `periods` that has one. */
export function firstFileOf(
  files: readonly FactFile[],
  periods: readonly string[],
  segment: string,
): FactFile | undefined {
  for (const period of periods) {
    const file = files.find((f) => f.period === period && f.segment === segment);
    if (file) return file;
  }
  return undefined;
}

/**
 * A read of fact files by path (or a glob of them), their own columns only: DuckDB would take
 * the `last_date=` folder in a path for a hive partition and add it as a column.
 */
export function readFactFile(paths: string | readonly string[], options = ''): string {
  const list = typeof paths === 'string' ? sqlString(paths) : `[${paths.map(sqlString).join(', ')}]`;
  return `read_parquet(${list}, hive_partitioning = false${options})`;
}

/** A subquery of one date's rows of a fact file (a period's file holds other dates too). */
export function factRows(path: string, date: string): string {
  return `(select * from ${readFactFile(path)} where snapshot_date = ${sqlString(date)}::date)`;
}

/**
 * Per segment, its last `count` snapshot dates of a fact table before `before`, latest first,
 * each with the file holding it: day files from the listing alone; a period's file, only
 * when it may hold a date newer than the `count`th found so far, is asked which dates it
 * holds (one column of one file; its row groups' statistics skip the dates from `before` on).
 * Files are taken newest first (comparePeriods), but a period's file may hold dates newer
 * than a later-sorted one's (a compactFiles table's day files left by an upgrade beside its
 * ten days' file, a closed ten days' file waiting for the upkeep beside the year's file).
 */
export async function recentFactDates(
  connection: DuckDBConnection,
  lake: string,
  table: string,
  before: string,
  segments: readonly string[],
  count: number,
): Promise<Map<string, { date: string; file: string }[]>> {
  const out = new Map<string, { date: string; file: string }[]>(segments.map((s) => [s, []]));
  const newestFirst = (list: { date: string }[]) => list.sort((a, b) => (a.date < b.date ? 1 : -1));
  const files = [...(factVersion(lake, table)?.files ?? [])]
    .filter((f) => periodStart(f.period) < before)
    .sort((a, b) => comparePeriods(b.period, a.period));
  for (const file of files) {
    const list = out.get(file.segment);
    if (!list) continue;
    const floor = list.length >= count ? newestFirst(list)[count - 1]!.date : undefined;
    if (floor !== undefined && periodEnd(file.period) < floor) continue;
    const dates = isDayFile(file)
      ? [file.period]
      : (
          await connection.runAndReadAll(
            `select distinct strftime(snapshot_date, '%Y-%m-%d') as d from ${readFactFile(file.path)}
              where snapshot_date < ${sqlString(before)}::date`,
          )
        )
          .getRows()
          .map(([date]) => String(date));
    for (const date of dates) if (!list.some((d) => d.date === date)) list.push({ date, file: file.path });
  }
  for (const list of out.values()) newestFirst(list).splice(count);
  return out;
}
