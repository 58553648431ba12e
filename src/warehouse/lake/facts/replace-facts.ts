import { join } from 'node:path';
import { sqlIdentifier as id, sqlString } from '../../warehouse-paths.js';
import { dataFileName, factLabel, monthOf } from '../core/lake-layout.js';
import { fileColumns, type LakeTable, type StagedRows } from '../core/lake-tables.js';
import type { LakeTransaction } from '../lake-transaction.js';
import { factVersion } from './fact-files.js';
import { nextLatest, readLatest, writeLatest } from './latest-tree.js';
import { readFactFiles, writeMonthFile } from './write-month.js';

/**
 * Replaces the facts of one date for `segments` (['all'] for a segment-less table): the
 * table gets a new version in which each replaced segment has a new file of the date's
 * `staged` rows (one row per key) and every other file is a hard link; the table's
 * latest-snapshot tree follows. A date of a closed month already consolidated rewrites that
 * month's file with the date replaced (a backfill's cost: seconds). Returns the rows written.
 * Its cost follows the date's rows (plus a link per file), not the history.
 */
export async function replaceFacts(
  tx: LakeTransaction,
  table: LakeTable,
  segments: readonly string[],
  date: string,
  staged: StagedRows,
): Promise<number> {
  const month = monthOf(date);
  const current = factVersion(tx.lake, table.name);
  const byName = new Map(current?.files.map((f) => [f.name, f]));
  const replaced = (period: string, segment: string) =>
    segments.includes(segment) && (period === date || period === month);
  const { version } = tx.nextVersion(
    join(tx.lake, table.name),
    table.name,
    'v',
    (name) => {
      const file = byName.get(name);
      return file === undefined || !replaced(file.period, file.segment);
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
    const monthFile = current?.files.find((f) => f.period === month && f.segment === segment);
    if (!monthFile) {
      const name = dataFileName(factLabel(date, segment), version.vid);
      const written = await tx.write(`select ${columns} from (${staged(where)})`, version, name);
      if (written > 0) files.set(segment, join(version.dir, name));
      rows += written;
      continue;
    }
    // The month's other dates kept, this date's rows replaced, sorted by date for pruning.
    const others = `${readFactFiles(table, current!.anchor!, [monthFile.path])} where snapshot_date <> ${sqlString(date)}::date`;
    const kept = await tx.connection.runAndReadAll(`select count(*) from (${others})`);
    const select = `${others} union all select ${columns} from (${staged(where)})`;
    const written = await writeMonthFile(tx, table, version, month, segment, select);
    const dateRows = written - Number(kept.getRows()[0]![0]);
    if (dateRows > 0)
      files.set(segment, join(version.dir, dataFileName(factLabel(month, segment), version.vid)));
    rows += dateRows;
  }
  const latest = await nextLatest(tx, table, readLatest(tx.lake, table.name), date, files, segments);
  const anchor = latest && current?.anchor;
  if (latest && anchor) await writeLatest(tx, table, latest, anchor);
  return rows;
}
