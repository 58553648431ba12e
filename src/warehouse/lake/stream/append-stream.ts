import { join } from 'node:path';
import type { Row } from '../../../contracts/rows.js';
import { STREAM_PARTITION_COLUMN, type StreamTable } from '../../../contracts/table-registry.js';
import { fillScratch } from '../core/fill-scratch.js';
import { dataFileName, partitionName } from '../core/lake-layout.js';
import type { LakeTransaction } from '../lake-transaction.js';
import { nextStreamVersion, STREAM_MERGE_FANOUT } from './merge-stream-parts.js';
import { type PendingPart, StreamKeys } from './stream-keys.js';

/**
 * One stream publish's parts: the new rows of a stream table go into one new part file per
 * received date (a new version of that day's partition, the day's earlier parts hard-linked);
 * a row whose key is already in the lake is skipped by looking it up in the exactly-once set
 * (StreamKeys, SQLite), never by reading the history. Today's parts are merged in tiers as
 * they accumulate (merge-stream-parts.ts), in the same new version. The publish calls begin() at the start
 * of its work, record() before its links are swapped and settle() after (see StreamKeys).
 */
export class StreamAppend {
  readonly #dataDir: string;
  readonly #fanout: number;
  #keys: StreamKeys | undefined;
  #pending: PendingPart[] = [];
  #ids: number[] = [];

  /** `fanout`: files per tier before a partition's parts merge (Infinity: only the closed day's compaction). */
  constructor(dataDir: string, fanout = STREAM_MERGE_FANOUT) {
    this.#dataDir = dataDir;
    this.#fanout = fanout;
  }

  /** Opens the exactly-once set and settles what a crashed publish left; again for a retried publish. */
  begin(tx: LakeTransaction): void {
    // A publish retried after running out of memory calls this again: one handle at a time.
    this.close();
    this.#keys = StreamKeys.open(this.#dataDir, tx.lake);
    this.#keys.recover();
    this.#pending = [];
  }

  /** Writes the rows of `rows` not yet in the lake as parts of `table`; returns how many. */
  async append(tx: LakeTransaction, table: StreamTable, rows: readonly Row[]): Promise<number> {
    const fresh = STREAM_KEYS[table].fresh(this.#keys!, rows);
    for (const { rows: partRows, ...part } of await writeParts(tx, table, fresh, this.#fanout))
      this.#pending.push({ ...part, ...STREAM_KEYS[table].ofPart(partRows) });
    return fresh.length;
  }

  /** Before the swaps: records the parts and their keys as pending. */
  record(): void {
    this.#ids = this.#keys!.record(this.#pending);
  }

  /** After the swaps: the parts are live. */
  settle(): void {
    this.#keys!.settle(this.#ids);
  }

  close(): void {
    this.#keys?.close();
    this.#keys = undefined;
  }
}

/** Per stream table: which rows of a batch are new, and the keys a part holds. */
const STREAM_KEYS: Record<
  StreamTable,
  {
    fresh(keys: StreamKeys, rows: readonly Row[]): Row[];
    ofPart(rows: readonly Row[]): Pick<PendingPart, 'documents' | 'deliveries'>;
  }
> = {
  // A document is kept once per hook: the earliest received (deliveries are at-least-once).
  stream_documents: {
    fresh: (keys, rows) =>
      firstOfEachKey(
        rows,
        (row) => `${row.hook_id}\u0000${row.document_id}`,
        (row) => timeOf('stream_documents', row),
      ).filter((row) => !keys.hasDocument(String(row.hook_id), String(row.document_id))),
    ofPart: (rows) => ({
      documents: rows.map((row) => [String(row.hook_id), String(row.document_id)] as const),
    }),
  },
  // A delivery is landed once: the first of the batch with its id.
  stream_deliveries: {
    fresh: (keys, rows) => {
      const seen = new Set<number>();
      return rows.filter((row) => {
        const id = Number(row.delivery_id);
        if (seen.has(id) || keys.hasDelivery(id)) return false;
        seen.add(id);
        return true;
      });
    },
    ofPart: (rows) => ({ deliveries: rows.map((row) => Number(row.delivery_id)) }),
  },
};

/** The UTC date of a row's received_at; a clear error naming the column when it is not a time. */
function timeOf(table: string, row: Row): number {
  const ms = Date.parse(String(row.received_at));
  if (Number.isNaN(ms))
    throw new TypeError(`warehouse: ${table}.received_at: not a time: ${JSON.stringify(row.received_at)}`);
  return ms;
}

/** One row per key: the earliest received, then the first in the batch. */
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
  table: StreamTable,
  rows: readonly Row[],
  fanout: number,
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
    await tx.write(select, version, file, { wide: tx.table(table).wide });
    parts.push({ table, link, file, rows: dateRows });
  }
  return parts;
}
