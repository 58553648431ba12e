/** Helpers of the history benchmark and the lake tests: a long history written directly, bytes written. */
import { execFileSync } from 'node:child_process';
import {
  linkSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { tableSpec } from '../src/contracts/table-registry.js';
import { sqlString } from '../src/warehouse/duckdb/warehouse-paths.js';
import {
  closedPeriodOf,
  dataFileName,
  factFileName,
  factLabel,
  factVersion,
  isYear,
  LAKE_DIR_NAME,
  linkTarget,
  monthOf,
  PERIOD_ROW_GROUP_SIZE,
  partitionName,
  readFactFile,
  tenDaysOf,
  versionsPath,
} from '../src/warehouse/lake/testing.js';
import type { SyncRunRecord } from '../src/warehouse/types.js';

/**
 * Gives a lake a long history quickly, in the layout the lake's own publishes and upkeep
 * write: each fact table's files of `from` are copied to each of `dates` with snapshot_date
 * replaced (one COPY per closed month, or closed ten days of the open month, and segment, by
 * date in month row groups, streaming with no sort; one per day of the open ten days, those
 * of the newest date, or one for them in a compactFiles table; then one per closed year and segment from its month files, written
 * aside, read in order as the upkeep does), in one new version swapped in like a publish; the stream tables' partitions of
 * `from` (received_date) are cloned as hard links. Synchronous (the COPYs run in a child
 * process). A year is not one COPY of a select per day: `union all` of 365 selects kept in
 * order buffered the whole year (6.7 GB spilled before a byte was written). `from`: a day
 * whose files hold it alone (a first day's lake; a compactFiles table's ten days' file then
 * holds only it).
 */
export function cloneDays(dataDir: string, from: string, dates: readonly string[]): void {
  const lake = join(dataDir, LAKE_DIR_NAME);
  const copies: string[] = [];
  const yearCopies: string[] = [];
  const months = join(dataDir, '.clone-months');
  const swaps: { link: string; version: string }[] = [];
  const all = [...new Set([from, ...dates])].sort();
  const newest = all[all.length - 1]!;
  for (const table of readdirSync(lake)) {
    // _versions, _latest and dot names are not tables.
    if (table.startsWith('_') || table.startsWith('.')) continue;
    const dir = join(lake, table);
    if (lstatSync(dir).isSymbolicLink()) {
      const current = factVersion(lake, table);
      const compact = tableSpec(table)?.compactFiles === true;
      // The files of `from`: its day's, or a compactFiles table's ten days' (only `from` in a first day's lake).
      const sources = current?.files.filter((f) => f.period === (compact ? tenDaysOf(from) : from)) ?? [];
      if (!current || sources.length === 0) continue; // a whole table, or no rows that day
      const vid = `history${Date.now().toString(36)}`;
      const version = join(versionsPath(lake, table), `v.${vid}`);
      mkdirSync(version, { recursive: true });
      const replaced = new Set(
        sources.filter(() => compact || closedPeriodOf(from, newest)).map((f) => f.name),
      );
      const place = (name: string) => {
        const path = join(version, name);
        mkdirSync(dirname(path), { recursive: true });
        return path;
      };
      for (const name of current.version.files)
        if (!replaced.has(name)) linkSync(join(current.version.dir, name), place(name));
      for (const source of sources) {
        const read = readFactFile(source.path);
        // Per file to write, its period and dates: a closed year's dates are grouped by month
        // (its file is written from the months'); a compactFiles table's open ten days are one file.
        const groups = new Map<string, { period: string; days: string[] }>();
        for (const date of all) {
          const period = closedPeriodOf(date, newest, compact) ?? (compact ? tenDaysOf(date) : undefined);
          if (period) {
            const key = isYear(period) ? monthOf(date) : period;
            const group = groups.get(key) ?? { period, days: [] };
            group.days.push(date);
            groups.set(key, group);
          } else if (date !== from) {
            const out = place(factFileName(date, source.segment, vid));
            copies.push(
              `copy (select * replace (${sqlString(date)}::date as snapshot_date) from ${read}) to ${sqlString(out)} (format parquet)`,
            );
          }
        }
        const years = new Map<string, string[]>();
        for (const [key, { period, days }] of groups) {
          const out =
            key === period
              ? place(factFileName(period, source.segment, vid))
              : join(months, table, dataFileName(factLabel(key, source.segment), vid));
          if (key !== period) years.set(period, [...(years.get(period) ?? []), out]);
          // One select per day in date order: the writer keeps that order (no sort to spill).
          const byDay = days.map(
            (d) => `select * replace (${sqlString(d)}::date as snapshot_date) from ${read}`,
          );
          copies.push(
            `copy (${byDay.join(' union all ')}) to ${sqlString(out)} (format parquet, row_group_size ${PERIOD_ROW_GROUP_SIZE})`,
          );
        }
        for (const [year, files] of years) {
          mkdirSync(join(months, table), { recursive: true });
          const out = place(factFileName(year, source.segment, vid));
          yearCopies.push(
            `copy (select * from read_parquet([${files.map(sqlString).join(', ')}])) to ${sqlString(out)} (format parquet, row_group_size ${PERIOD_ROW_GROUP_SIZE})`,
          );
        }
      }
      swaps.push({ link: dir, version });
      continue;
    }
    const entries = readdirSync(dir);
    const source = entries.find((name) => name.endsWith(`=${from}`));
    if (!source) continue;
    const column = source.split('=')[0]!;
    const target = linkTarget(join(dir, source))!;
    for (const date of dates) {
      const version = join(versionsPath(lake, table), `${date}.history`);
      mkdirSync(version, { recursive: true });
      for (const file of readdirSync(target)) linkSync(join(target, file), join(version, file));
      symlinkSync(relative(dir, version), join(dir, partitionName(column, date)));
    }
  }
  runCopies(copies, join(dataDir, '.clone-spill'));
  runCopies(yearCopies, join(dataDir, '.clone-spill'));
  rmSync(months, { recursive: true, force: true });
  for (const { link, version } of swaps) {
    const temp = `${link}.history-swap`;
    symlinkSync(relative(lake, version), temp);
    renameSync(temp, link);
  }
}

/**
 * Parallel writers of runCopies, each with two threads: a month's COPY of one select per day
 * then fills whole row groups as the lake's writer does (with one thread, each day's select
 * ends its own group), and two writers keep both cores busy while the other reads.
 */
const CLONE_WRITERS = 2;

/**
 * Runs COPY statements in a child process (the statements on its stdin), waiting for it:
 * CLONE_WRITERS DuckDB instances take them in turn, insertion order kept (a month's rows by
 * date, no sort: sorting a month of post_stats took 3.5 times as long), each spilling to its
 * own folder under `spill` (removed after).
 */
function runCopies(statements: readonly string[], spill: string): void {
  if (statements.length === 0) return;
  const duckdb = pathToFileURL(createRequire(import.meta.url).resolve('@duckdb/node-api')).href;
  const settings = {
    threads: '2',
    memory_limit: '1GB',
    preserve_insertion_order: 'true',
  };
  const script = `
    const { DuckDBInstance } = await import(${JSON.stringify(duckdb)});
    const { mkdirSync, readFileSync } = await import('node:fs');
    const statements = JSON.parse(readFileSync(0, 'utf8'));
    let next = 0;
    // Each its own spill folder: two instances in one folder overwrite each other's temp file.
    const writer = async (_, i) => {
      const temp_directory = ${JSON.stringify(spill)} + '/' + i;
      mkdirSync(temp_directory, { recursive: true });
      const instance = await DuckDBInstance.create(':memory:', { ...${JSON.stringify(settings)}, temp_directory });
      const connection = await instance.connect();
      while (next < statements.length) await connection.run(statements[next++]);
      connection.closeSync();
      instance.closeSync();
    };
    await Promise.all(Array.from({ length: ${CLONE_WRITERS} }, writer));`;
  execFileSync(process.execPath, ['--input-type=module', '-e', script], {
    input: JSON.stringify(statements),
    stdio: ['pipe', 'inherit', 'inherit'],
  });
  rmSync(spill, { recursive: true, force: true });
}

/**
 * The kernel's write accounting of this process so far (/proc/self/io): `write_bytes`, what
 * it caused to be sent to storage (a page is counted when dirtied, not again while it stays
 * dirty, again if dirtied after a writeback: other processes' I/O moves it), or `wchar`,
 * every byte it passed to write(2) and pwrite(2) (exact, and also counts pipes and sockets).
 */
export function writeBytes(counter: 'write_bytes' | 'wchar' = 'write_bytes'): number {
  const io = readFileSync('/proc/self/io', 'utf8');
  return Number(new RegExp(`^${counter}: (\\d+)$`, 'm').exec(io)![1]);
}

/** `count` consecutive dates after `start` (YYYY-MM-DD). */
export function datesAfter(start: string, count: number): string[] {
  const first = Date.parse(`${start}T00:00:00Z`);
  return Array.from({ length: count }, (_, i) =>
    new Date(first + (i + 1) * 86_400_000).toISOString().slice(0, 10),
  );
}

/** A succeeded nightly run of `date` (21:30 to 21:40 UTC), as the history benchmarks record it. */
export function benchSyncRun(date: string, runId: string, rowsWritten = 0): SyncRunRecord {
  return {
    run_id: runId,
    started_at: `${date}T21:30:00Z`,
    finished_at: `${date}T21:40:00Z`,
    status: 'succeeded',
    snapshot_date: date,
    requests: 0,
    retries: 0,
    throttled: 0,
    rows_written: rowsWritten,
    error: null,
  };
}

/** Bytes of the files (not folders, not links) under `dir`, each inode once (hard links share one). */
export function fileBytes(dir: string, seen = new Set<number>()): number {
  let bytes = 0;
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const stat = lstatSync(path);
    if (stat.isDirectory()) bytes += fileBytes(path, seen);
    else if (stat.isFile() && !seen.has(stat.ino)) {
      seen.add(stat.ino);
      bytes += stat.size;
    }
  }
  return bytes;
}
