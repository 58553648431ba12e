import { randomBytes } from 'node:crypto';
import { existsSync, realpathSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';

/**
 * Layout of the Parquet lake under <dataDir>/lake/ (docs/lake.md):
 *
 *   <fact>                                     symlink to _versions/<fact>/v.<vid>/: files that
 *                                              hold snapshot_date, sorted by it, each in the folder
 *                                              `last_date=<the last day its period can hold>/`
 *                                              (FACT_LAYOUT; factFilePlace):
 *     last_date=YYYY-MM-DD/YYYY-MM-DD~<segment>.<vid>.parquet   a day of the open ten days
 *     last_date=YYYY-MM-10/YYYY-MM-D1~<segment>.<vid>.parquet   closed ten days of the open
 *                                              month: days 1-10 (D1), 11-20 (D2), 21 to the
 *                                              month's end (D3)
 *     last_date=YYYY-MM-31/YYYY-MM~<segment>.<vid>.parquet      a closed month of the open
 *                                              year, consolidated (row groups prune)
 *     last_date=YYYY-12-31/YYYY~<segment>.<vid>.parquet         a closed year, consolidated
 *                                              from its months
 *     last_date=0001-01-01/_schema.<vid>.parquet                the schema anchor (zero rows)
 *                                              A compactFiles table (TableSpec) has only:
 *     last_date=YYYY-MM-10/YYYY-MM-D1~<segment>.<vid>.parquet   the open ten days' days,
 *                                              rewritten by each publish
 *     last_date=YYYY-12-31/YYYY~<segment>.<vid>.parquet         a closed year, or the open
 *                                              year's closed ten days, rewritten when ten
 *                                              days close
 *   stream_documents/received_date=YYYY-MM-DD  symlink to ../_versions/<table>/YYYY-MM-DD.<vid>/
 *                                              (hive: by the day the sink received it)
 *   <entity>, sync_runs, hooks                 symlink to _versions/<table>/v.<vid>/ (whole table)
 *   _latest/<fact>                             symlink to ../_versions/<fact>/latest.<vid>/: the
 *                                              latest day file of each segment (hard links), never
 *                                              a period's file
 *   _versions/<table>/...                      immutable version directories (never matched by
 *                                              the views' globs; Spark and Hive skip `_` names)
 * A publish writes a new version directory (unchanged files hard-linked from the previous one)
 * and swaps the link with rename(2); links are relative, so the data directory can move.
 */
export const LAKE_DIR_NAME = 'lake';
export const VERSIONS_DIR_NAME = '_versions';
export const LATEST_DIR_NAME = '_latest';

/**
 * The partition value of each partitioned table's schema anchor: one zero-row file with the
 * table's full schema, so an empty table is still queryable (a glob matching nothing is an
 * error) and a column no older file has still has its type. A real date every engine parses;
 * it holds no rows, so no query ever returns it.
 */
export const ANCHOR_PARTITION = '0001-01-01';

/** File-name prefix of a schema anchor (Spark and Hive skip files starting with `_`). */
export const SCHEMA_FILE = '_schema';

/**
 * The lake's absolute path: views hold absolute paths (relative ones follow the reader's CWD).
 * The data directory's real path where it exists, so the same directory reached through a
 * symlink or bind mount is not taken for a moved one (its catalog rewritten back and forth).
 */
export function lakePath(dataDir: string): string {
  return resolve(existsSync(dataDir) ? realpathSync(dataDir) : dataDir, LAKE_DIR_NAME);
}

export function versionsPath(lake: string, table: string): string {
  return join(lake, VERSIONS_DIR_NAME, table);
}

export function partitionName(column: string, value: string): string {
  return `${column}=${value}`;
}

export function latestLinkPath(lake: string, table: string): string {
  return join(lake, LATEST_DIR_NAME, table);
}

/**
 * A new version id: sortable by creation time (base-36 milliseconds) and unique (random
 * suffix), with no dot, so `<prefix>.<vid>.parquet` names parse from the right.
 */
export function newVersionId(): string {
  return `${Date.now().toString(36).padStart(9, '0')}${randomBytes(3).toString('hex')}`;
}

/**
 * When the version id in `name` (a data file's `<label>.<vid>.parquet`, or a version folder's
 * `<prefix>.<vid>`) was made (epoch ms); undefined for a name without one.
 */
export function versionIdTime(name: string): number | undefined {
  const match = /\.([0-9a-z]{9})[0-9a-f]{6}(?:\.parquet)?$/.exec(basename(name));
  return match ? Number.parseInt(match[1]!, 36) : undefined;
}

/**
 * The fact tables' layout, recorded in _catalog.json: 4 is 3 with the compactFiles tables'
 * few files (their open ten days in one file, the open year's closed ten days in its year's;
 * the same folders and paths), into which a lake of 3 settles at its first upkeep: a release
 * of 3 would lose rows in it (its publish of a day of the open ten days drops every file
 * whose period may hold the day, the open year's included), so it refuses a lake of 4. 3 is
 * one folder per table, each file in a `last_date=` folder (above), so that a filter on
 * snapshot_date skips whole files before DuckDB opens them (catalog/view-sql.ts); 2 was the same files in one flat folder (year and
 * ten-day files came later within 2), moved into their folders at the first run by hard links
 * (catalog/write-anchors.ts); 1 (no `layout` in the stamp) was one hive folder per snapshot
 * date whose files lacked snapshot_date, upgraded at the first run
 * (upgrades/upgrade-fact-layout.ts).
 */
export const FACT_LAYOUT = 4;

/**
 * The hive column of a fact table's folders: the last snapshot date its files' period can
 * hold. A pruned view keeps the rows with `last_date >= snapshot_date` (all of them), from
 * which DuckDB derives, for a query's `snapshot_date = D`, `> D` or `>= D`, a filter on
 * last_date that skips every earlier folder without opening its files (catalog/view-sql.ts).
 */
export const LAST_DATE_COLUMN = 'last_date';

/** The last day a fact file of `period` can hold (YYYY-MM-DD): a day itself, the end of its ten days, month or year. */
export function periodLastDate(period: string): string {
  if (isDay(period)) return period;
  if (isYear(period)) return `${period}-12-31`;
  const month = monthOf(period);
  const end = new Date(Date.UTC(Number(yearOf(month)), Number(month.slice(5, 7)), 0)).getUTCDate();
  if (isMonth(period)) return `${month}-${end}`;
  return `${month}-${Math.min(end, Number(tenDayBounds(period)[1]))}`;
}

/**
 * Where a fact table's data file or schema anchor named `name` lives in its version folder:
 * `last_date=<periodLastDate>/<name>`, the anchor's folder being ANCHOR_PARTITION.
 */
export function factFilePlace(name: string): string {
  const period = parseFactFile(name)?.period;
  if (period === undefined && labelOf(name) !== SCHEMA_FILE)
    throw new Error(
      `warehouse: ${name} is not a fact file of this release; move it out of the fact table's folder in the lake and run again`,
    );
  return join(partitionName(LAST_DATE_COLUMN, period ? periodLastDate(period) : ANCHOR_PARTITION), name);
}

/** A fact file's label: its period (a day, closed ten days, month or year) and its segment (`all` when unsegmented). */
export function factLabel(period: string, segment: string): string {
  return `${period}~${segment}`;
}

/** Where a fact table's file of `period` and `segment` written in version `vid` lives in that version (factFilePlace). */
export function factFileName(period: string, segment: string, vid: string): string {
  return factFilePlace(dataFileName(factLabel(period, segment), vid));
}

/** The period and segment of a fact file's name or place in its version (see factLabel); undefined for the anchor or another name. */
export function parseFactFile(name: string): { period: string; segment: string } | undefined {
  const label = labelOf(name);
  const at = label?.indexOf('~') ?? -1;
  if (!label || at < 0) return undefined;
  const period = label.slice(0, at);
  return isDay(period) || isTenDays(period) || isMonth(period) || isYear(period)
    ? { period, segment: label.slice(at + 1) }
    : undefined;
}

/** The YYYY-MM month of a YYYY-MM-DD date. */
export function monthOf(date: string): string {
  return date.slice(0, 7);
}

export function isMonth(value: string): boolean {
  return /^\d{4}-\d{2}$/.test(value);
}

/** The YYYY year of a YYYY-MM-DD date (or of a YYYY-MM month). */
export function yearOf(date: string): string {
  return date.slice(0, 4);
}

export function isYear(value: string): boolean {
  return /^\d{4}$/.test(value);
}

/**
 * The ten days of the month a YYYY-MM-DD date is in, `YYYY-MM-D1` (days 1 to 10), `-D2` (11
 * to 20) or `-D3` (21 to the month's end): the open month's days are consolidated by ten, so
 * that a table is at most ten day files, two ten-day files, 11 month files and its years.
 */
export function tenDaysOf(date: string): string {
  const day = Number(date.slice(8, 10));
  return `${monthOf(date)}-D${day <= 10 ? 1 : day <= 20 ? 2 : 3}`;
}

export function isTenDays(value: string): boolean {
  return /^\d{4}-\d{2}-D[123]$/.test(value);
}

/**
 * The periods whose fact file may hold `date`'s rows, smallest first: its day, its ten days,
 * its month, its year (a segment has at most one of them holding the date).
 */
export function periodsOf(date: string): [string, string, string, string] {
  return [date, tenDaysOf(date), monthOf(date), yearOf(date)];
}

/**
 * The closed period a fact file of `period` (a day, ten days, a month or a year) belongs to
 * when the table's newest file is of `newest` (a day, or the open ten days of a compactFiles
 * table): its year when that year is before `newest`'s, else its month when that month is
 * before `newest`'s, else its ten days when those are before the open ten days, else
 * undefined (the open ten days' files, and a file of the open year or month that is no day's:
 * they stay as they are). A `compact` table (TableSpec.compactFiles) has no month or ten-day
 * tier: a file wholly before the open ten days belongs to its year, the open year's included
 * (its closed ten days so far, rewritten when ten days close), as does that year's own file.
 * Closed from the data, not the clock (facts/consolidate-facts.ts).
 */
export function closedPeriodOf(period: string, newest: string, compact = false): string | undefined {
  if (yearOf(period) < yearOf(newest)) return yearOf(period);
  // The open year's own file belongs to its year too: it joins the ten days closing into it.
  if (compact) return isYear(period) || periodEnd(period) < openStart(newest) ? yearOf(period) : undefined;
  if (isYear(period)) return undefined;
  if (monthOf(period) < monthOf(newest)) return monthOf(period);
  if (isMonth(period)) return undefined;
  const tenDays = isDay(period) ? tenDaysOf(period) : period;
  return periodEnd(tenDays) < openStart(newest) ? tenDays : undefined;
}

/** The ten days after `tenDays` (YYYY-MM-D1..D3): the next of its month, or the next month's first. */
export function nextTenDays(tenDays: string): string {
  const n = Number(tenDays.slice(9));
  if (n < 3) return `${monthOf(tenDays)}-D${n + 1}`;
  const [year, month] = [Number(tenDays.slice(0, 4)), Number(tenDays.slice(5, 7))];
  return month === 12 ? `${year + 1}-01-D1` : `${year}-${String(month + 1).padStart(2, '0')}-D1`;
}

/**
 * The first key of the open ten days of a table whose newest file is of `newest` (a day or
 * ten days); after a newest month or year (a table whose recent rows were removed), its end:
 * all of it is closed but itself.
 */
function openStart(newest: string): string {
  if (isDay(newest)) return periodStart(tenDaysOf(newest));
  return isTenDays(newest) ? periodStart(newest) : periodEnd(newest);
}

/**
 * The periods whose file, when a segment has one, a publish of `date` rewrites with the date's
 * rows replaced, smallest first (the first found is the one: the layout has one holding the
 * date, or a day file and, after a compactFiles table's upgrade, its ten days' file), in a
 * table whose newest file is of `newest`: periodsOf(date); for a `compact` table, a date of its
 * open ten days (or later) only its day's or ten days' file, never its year's (which holds the
 * closed ten days only).
 */
export function publishPeriodsOf(
  date: string,
  newest: string | undefined,
  compact: boolean,
): readonly string[] {
  const periods = periodsOf(date);
  const open =
    compact && (newest === undefined || closedPeriodOf(tenDaysOf(date), newest, true) === undefined);
  return open ? periods.slice(0, 2) : periods;
}

/** The period of the file a publish of `date` writes when no file holds it: the day, or a compactFiles table's ten days. */
export function newFilePeriod(date: string, compact: boolean): string {
  return compact ? tenDaysOf(date) : date;
}

/**
 * A key of a fact file's period that sorts, as a string, after every date the period holds
 * and before every later date: a day is itself, ten days their last day number and `~`
 * (`YYYY-MM-10~`, `-20~`, `-31~`), a month `YYYY-MM-99`, a year `YYYY-99-99`.
 */
export function periodEnd(period: string): string {
  if (isTenDays(period)) return `${monthOf(period)}-${tenDayBounds(period)[1]}~`;
  return `${period}-99-99`.slice(0, 10);
}

/** The first key of a period in periodEnd's order (no earlier date sorts after it). */
export function periodStart(period: string): string {
  if (isTenDays(period)) return `${monthOf(period)}-${tenDayBounds(period)[0]}`;
  return `${period}-00-00`.slice(0, 10);
}

/**
 * A sort of a table's files' periods by the newest date each holds, the earliest first
 * (reverse the arguments for the latest first): by periodEnd, but a year before its year's
 * other periods. A year's file beside other files of its year is a compactFiles table's open
 * year, which holds only the ten days closed before theirs (a closed year's file is alone).
 */
export function comparePeriods(a: string, b: string): number {
  const key = (period: string) => (isYear(period) ? `${period}-00` : periodEnd(period));
  const [endA, endB] = [key(a), key(b)];
  return endA < endB ? -1 : endA > endB ? 1 : 0;
}

/** The first and last day numbers of `YYYY-MM-D1..D3` (D3's last is 31, whatever the month). */
function tenDayBounds(period: string): readonly [string, string] {
  return TEN_DAY_BOUNDS[Number(period.slice(9)) - 1]!;
}

const TEN_DAY_BOUNDS = [
  ['01', '10'],
  ['11', '20'],
  ['21', '31'],
] as const;

/** `<label>.<vid>.parquet`: labels are a fact file's period~segment, an entity's month, `p` (a sink part), `c` (compacted), `_schema`. */
export function dataFileName(label: string, vid: string): string {
  return `${encodeURIComponent(label)}.${vid}.parquet`;
}

/** The label of a data file's name or place in its version (see dataFileName); undefined for a name of another form. */
export function labelOf(name: string): string | undefined {
  const match = /^(.*)\.[0-9a-z]+\.parquet$/.exec(basename(name));
  return match ? decodeURIComponent(match[1]!) : undefined;
}

/** A YYYY-MM-DD partition value (validated: it becomes a path). */
export function isDay(value: string): boolean {
  return /^\d{4}-\d{2}-\d{2}$/.test(value);
}
