import { join } from 'node:path';
import { sqlIdentifier as id, sqlString } from '../../duckdb/warehouse-paths.js';
import { factFileName, isTenDays, newFilePeriod, publishPeriodsOf } from '../core/lake-layout.js';
import { fileColumns, type LakeTable, type StagedRows } from '../core/lake-tables.js';
import type { LakeTransaction } from '../lake-transaction.js';
import { type FactFile, factVersion, firstFileOf, newestOpenPeriod } from './fact-files.js';
import { nextLatest, readLatest, writeLatest } from './latest-tree.js';
import { readFactFiles, withPeriodWriteSettings, writePeriodFile } from './write-period.js';

/**
 * Replaces the facts of one date for `segments` (['all'] for a segment-less table): the
 * table gets a new version in which each replaced segment has a new file of the date's
 * `staged` rows (one row per key; its day's, or a compactFiles table's ten days') and every
 * other file is a hard link; the table's latest-snapshot tree follows. A date whose period's
 * file exists (publishPeriodsOf: closed ten days, a closed month or year already consolidated,
 * a compactFiles table's open ten days) rewrites that file with the date replaced (a
 * backfill's cost: seconds for a month, the time of reading and writing the year for a year;
 * at most ten days of a compactFiles table). Returns the rows written. Its cost follows the
 * date's rows (plus a link per file), not the history.
 */
export async function replaceFacts(
  tx: LakeTransaction,
  table: LakeTable,
  segments: readonly string[],
  date: string,
  staged: StagedRows,
): Promise<number> {
  const current = factVersion(tx.lake, table.name);
  const newest = current && (await newestOpenPeriod(tx.connection, table.compactFiles, current.files));
  const periods = publishPeriodsOf(date, newest, table.compactFiles);
  // Per segment, the period's file that holds the date (replaced with its other dates kept), if any.
  const holders = new Map<string, FactFile>();
  for (const segment of segments) {
    const file = firstFileOf(current?.files ?? [], periods.slice(1), segment);
    if (file) holders.set(segment, file);
  }
  // The date's day file (if any) and each holder make way for the new files.
  const replaced = (file: FactFile) =>
    segments.includes(file.segment) && (file.period === date || holders.get(file.segment) === file);
  const byName = new Map(current?.files.map((f) => [f.name, f]));
  const { version } = tx.nextVersion(
    join(tx.lake, table.name),
    table.name,
    'v',
    (name) => {
      const file = byName.get(name);
      return file === undefined || !replaced(file);
    },
    current?.version,
  );
  const columns = fileColumns(table)
    .map((c) => id(c.name))
    .join(', ');
  const files = new Map<string, string>();
  let rows = 0;
  for (const segment of segments) {
    const where = `snapshot_date = ${sqlString(date)}::date${table.segmented ? ` and segment = ${sqlString(segment)}` : ''}`;
    const closed = holders.get(segment);
    if (!closed) {
      const name = factFileName(newFilePeriod(date, table.compactFiles), segment, version.vid);
      const written = await tx.write(`select ${columns} from (${staged(where)})`, version, name);
      if (written > 0) files.set(segment, join(version.dir, name));
      rows += written;
      continue;
    }
    // The period's other dates kept, this date's rows put between them: by date with no sort
    // (sorting a year would spill and need several times the memory of its row groups). A
    // compactFiles table's ten days (at most ten days of a few hundred rows) are sorted in the
    // publish's own memory: no change of its limit, which purges the process's allocator.
    const day = `${sqlString(date)}::date`;
    const read = readFactFiles(table, current!.anchor!, [closed.path]);
    const kept = await tx.connection.runAndReadAll(
      `select count(*) from (${read} where snapshot_date <> ${day})`,
    );
    const select = `${read} where snapshot_date < ${day}
      union all select ${columns} from (${staged(where)})
      union all ${read} where snapshot_date > ${day}`;
    const written =
      table.compactFiles && isTenDays(closed.period)
        ? await writePeriodFile(tx, table, version, closed.period, segment, select)
        : await withPeriodWriteSettings(tx.connection, () =>
            writePeriodFile(tx, table, version, closed.period, segment, select, true),
          );
    const dateRows = written - Number(kept.getRows()[0]![0]);
    if (dateRows > 0)
      files.set(segment, join(version.dir, factFileName(closed.period, segment, version.vid)));
    rows += dateRows;
  }
  const latest = await nextLatest(tx, table, readLatest(tx.lake, table.name), date, files, segments);
  const anchor = latest && current?.anchor;
  if (latest && anchor) await writeLatest(tx, table, latest, anchor);
  return rows;
}
