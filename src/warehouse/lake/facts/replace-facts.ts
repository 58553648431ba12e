import { join } from 'node:path';
import { sqlIdentifier as id, sqlString } from '../../warehouse-paths.js';
import { dataFileName, partitionName } from '../core/lake-layout.js';
import { fileColumns, type LakeTable, type StagedRows } from '../core/lake-tables.js';
import type { LakeTransaction } from '../lake-transaction.js';
import { anchorFile, nextLatest, readLatest, segmentOfFile, writeLatest } from './latest-tree.js';

/**
 * Replaces the facts of one date for `segments` (['all'] for a segment-less table): the
 * date's partition gets a new version in which each replaced segment has a new file of
 * `staged` (one row per key) and the other segments' files are hard links; the table's
 * latest-snapshot tree follows. Returns the rows written. Its cost follows the date's rows,
 * not the history.
 */
export async function replaceFacts(
  tx: LakeTransaction,
  table: LakeTable,
  segments: readonly string[],
  date: string,
  staged: StagedRows,
): Promise<number> {
  const link = join(tx.lake, table.name, partitionName('snapshot_date', date));
  // The other segments' files are kept; the replaced ones and the schema anchor's are not.
  const { version, kept } = tx.nextVersion(link, table.name, date, (name) => {
    const segment = segmentOfFile(name);
    return segment !== undefined && !segments.includes(segment);
  });
  const files = new Map(kept.map((name) => [segmentOfFile(name)!, join(version.dir, name)]));
  const columns = fileColumns(table)
    .map((c) => id(c.name))
    .join(', ');
  let rows = 0;
  for (const segment of segments) {
    const where = `snapshot_date = ${sqlString(date)}::date${table.segmented ? ` and segment = ${sqlString(segment)}` : ''}`;
    const name = dataFileName(segment, version.vid);
    const written = await tx.write(`select ${columns} from (${staged(where)})`, version, name);
    if (written > 0) files.set(segment, join(version.dir, name));
    rows += written;
  }
  const latest = nextLatest(tx.lake, table, readLatest(tx.lake, table.name), date, files, segments);
  const anchor = latest && anchorFile(tx.lake, table);
  if (latest && anchor) writeLatest(tx, table, latest, anchor);
  return rows;
}
