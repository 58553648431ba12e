import { join } from 'node:path';
import type { Row } from '../normalize/rows.js';
import { fillScratch } from './fill-scratch.js';
import { dataFileName, labelOf, partitionName, SCHEMA_FILE } from './lake/lake-layout.js';
import { isWide, STREAM_PARTITION_COLUMN } from './lake/lake-tables.js';
import type { LakeTransaction } from './lake/lake-transaction.js';
import { linkedVersion } from './lake/link-target.js';
import { nextStreamVersion } from './lake/merge-stream-parts.js';
import { rewriteWhole } from './lake/rewrite-whole.js';
import { type PendingPart, StreamKeys } from './lake/stream-keys.js';
import { type BeforeRename, publishWarehouse } from './publish-warehouse.js';
import type { PublishResult, StreamBatch } from './types.js';
import { sqlIdentifier as id, sqlString } from './warehouse-paths.js';

/**
 * The sink loader's publish: lands a batch of pushed documents, deliveries and hook states.
 * Small and frequent (every few seconds), so its cost is the batch's: the new rows go into
 * one new part file per table and received date (a new version of that day's partition, the
 * day's earlier parts hard-linked), a document already kept for its hook and a delivery
 * already landed are skipped by looking them up in the exactly-once set (StreamKeys, SQLite),
 * never by reading the history. Hooks (a few rows) are rewritten when the batch has any.
 */
export async function publishStream(
  dataDir: string,
  batch: StreamBatch,
  options: {
    beforeRename?: BeforeRename;
    /** Files per tier before today's parts merge (STREAM_MERGE_FANOUT; Infinity: only compaction). */
    mergeFanout?: number;
  } = {},
): Promise<PublishResult> {
  const started = performance.now();
  const fanout = options.mergeFanout;
  const rowsByTable: Record<string, number> = { stream_documents: 0, stream_deliveries: 0, hooks: 0 };
  let keys: StreamKeys | undefined;
  let pending: PendingPart[] = [];
  let ids: number[] = [];
  try {
    await publishWarehouse(
      dataDir,
      async (tx) => {
        // A publish retried after running out of memory calls this again: one handle at a time.
        keys?.close();
        keys = undefined;
        keys = StreamKeys.open(dataDir, tx.lake);
        keys.recover();
        const documents = firstOfEachKey(
          batch.documents,
          (row) => `${row.hook_id}\u0000${row.document_id}`,
          (row) => timeOf('stream_documents', row),
        ).filter((row) => !keys!.hasDocument(String(row.hook_id), String(row.document_id)));
        const seenDeliveries = new Set<number>();
        const deliveries = batch.deliveries.filter((row) => {
          const id = Number(row.delivery_id);
          if (seenDeliveries.has(id) || keys!.hasDelivery(id)) return false;
          seenDeliveries.add(id);
          return true;
        });
        pending = [
          ...(await writeParts(tx, 'stream_documents', documents, fanout)).map(({ rows, ...part }) => ({
            ...part,
            documents: rows.map((row) => [String(row.hook_id), String(row.document_id)] as const),
          })),
          ...(await writeParts(tx, 'stream_deliveries', deliveries, fanout)).map(({ rows, ...part }) => ({
            ...part,
            deliveries: rows.map((row) => Number(row.delivery_id)),
          })),
        ];
        rowsByTable.stream_documents = documents.length;
        rowsByTable.stream_deliveries = deliveries.length;
        if (batch.hooks.length) rowsByTable.hooks = await writeHooks(tx, batch.hooks);
      },
      {
        ...options,
        beforeCommit: () => {
          ids = keys!.record(pending);
        },
        afterCommit: () => keys!.settle(ids),
      },
    );
  } finally {
    keys?.close();
  }
  const rowsWritten = Object.values(rowsByTable).reduce((sum, n) => sum + n, 0);
  return { rowsByTable, rowsWritten, durationMs: performance.now() - started };
}

/** The UTC date of a row's received_at; a clear error naming the column when it is not a time. */
function timeOf(table: string, row: Row): number {
  const ms = Date.parse(String(row.received_at));
  if (Number.isNaN(ms))
    throw new TypeError(`warehouse: ${table}.received_at: not a time: ${JSON.stringify(row.received_at)}`);
  return ms;
}

/** One row per key: the earliest received (deliveries are at-least-once), then the first in the batch. */
function firstOfEachKey(rows: readonly Row[], key: (row: Row) => string, time: (row: Row) => number): Row[] {
  const best = new Map<string, { row: Row; time: number; at: number }>();
  rows.forEach((row, at) => {
    const k = key(row);
    const t = time(row);
    const current = best.get(k);
    if (!current || t < current.time) best.set(k, { row, time: t, at });
  });
  return [...best.values()].sort((a, b) => a.at - b.at).map((entry) => entry.row);
}

/** A part written by writeParts: where it goes live and the rows it holds. */
interface WrittenPart {
  readonly table: string;
  readonly link: string;
  readonly file: string;
  readonly rows: readonly Row[];
}

/**
 * Appends `rows` to the session's scratch table and writes one part per received date into
 * a new version of that date's partition (the earlier parts hard-linked). Returns the parts
 * with their rows (the caller takes their keys).
 */
async function writeParts(
  tx: LakeTransaction,
  table: 'stream_documents' | 'stream_deliveries',
  rows: readonly Row[],
  fanout?: number,
): Promise<WrittenPart[]> {
  const byDate = new Map<string, Row[]>();
  for (const row of rows) {
    const date = new Date(timeOf(table, row)).toISOString().slice(0, 10);
    const list = byDate.get(date) ?? [];
    list.push(row);
    byDate.set(date, list);
  }
  const parts: WrittenPart[] = [];
  for (const [date, dateRows] of [...byDate].sort(([a], [b]) => a.localeCompare(b))) {
    const select = await fillScratch(tx, table, dateRows);
    const link = join(tx.lake, table, partitionName(STREAM_PARTITION_COLUMN, date));
    const version = await nextStreamVersion(tx, table, link, date, fanout);
    const file = dataFileName('p', version.vid);
    await tx.write(select, version, file, { wide: isWide(tx.table(table)) });
    parts.push({ table, link, file, rows: dateRows });
  }
  return parts;
}

/** The batch's last state of each hook replaces its row. */
async function writeHooks(tx: LakeTransaction, hooks: readonly Row[]): Promise<number> {
  const latest = firstOfEachKey(
    [...hooks].reverse(),
    (row) => String(row.hook_id),
    () => 0,
  );
  const select = await fillScratch(tx, 'hooks', latest);
  // The loader passes every hook at each publish: rewrite only when one changed.
  const current = linkedVersion(join(tx.lake, 'hooks'));
  const data = current?.files.filter((name) => labelOf(name) !== SCHEMA_FILE) ?? [];
  if (current && data.length && !(await hooksDiffer(tx, current.dir, data))) return 0;
  return rewriteWhole(tx, 'hooks', ['hook_id'], select, current);
}

/**
 * Whether the batch's hooks differ from the published ones, compared column by column by
 * name (files written before a migration added a column read it as NULL, and so differ).
 */
async function hooksDiffer(tx: LakeTransaction, target: string, files: readonly string[]): Promise<boolean> {
  // The session's hooks table, as the migrations define it (its columns in order).
  const columns = tx
    .table('hooks')
    .columns.map((c) => id(c.name))
    .join(', ');
  const paths = files.map((name) => sqlString(join(target, name))).join(', ');
  const published = `select ${columns} from read_parquet([${paths}], union_by_name = true)`;
  try {
    const diff = await tx.connection.runAndReadAll(
      `select count(*) from (select ${columns} from memory.main.hooks except ${published})`,
    );
    return Number(diff.getRows()[0]![0]) > 0;
  } catch {
    // A published file lacking a column the table has now: rewrite.
    return true;
  }
}
