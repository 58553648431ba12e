import { chmodSync, closeSync, mkdirSync, openSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { Database, type Statement } from '../../../state/sqlite-database.js';
import { linkedFiles } from '../core/link-target.js';
import type { LakeTransaction } from '../lake-transaction.js';

/** The exactly-once set of the stream tables, beside the lake (not in it: the lake is plain Parquet). */
export const STREAM_KEYS_FILE = 'stream-keys.sqlite';

/** A part file a stream publish is about to make live, with the keys it holds. */
export interface PendingPart {
  readonly table: string;
  /** The partition link (absolute). */
  readonly link: string;
  readonly file: string;
  readonly documents?: readonly (readonly [string, string])[];
  readonly deliveries?: readonly number[];
}

/**
 * The (hook_id, document_id) and delivery_id keys already in the lake, in SQLite, so a stream
 * publish never reads the history to stay exactly-once. Kept consistent with the lake across a
 * crash: a publish records its parts' keys with the parts marked pending BEFORE it swaps the
 * partition links, and clears the mark after; recover() (at the next publish) keeps the keys
 * of a pending part that is live in the lake and drops those of one that is not.
 */
export class StreamKeys {
  readonly #db: Database;
  readonly #lake: string;
  readonly #hasDocument: Statement<[string, string]>;
  readonly #hasDelivery: Statement<[number]>;

  private constructor(db: Database, lake: string) {
    this.#db = db;
    this.#lake = lake;
    db.exec(`
      create table if not exists documents (hook_id text not null, document_id text not null, part integer not null,
        primary key (hook_id, document_id)) without rowid;
      create table if not exists deliveries (delivery_id integer primary key, part integer not null);
      create table if not exists pending_parts (part integer primary key, table_name text not null,
        link text not null, file text not null);
      create table if not exists part_seq (id integer primary key check (id = 1), next integer not null);
      insert or ignore into part_seq values (1, 1);`);
    this.#hasDocument = db.prepare('select 1 from documents where hook_id = ? and document_id = ?');
    this.#hasDelivery = db.prepare('select 1 from deliveries where delivery_id = ?');
  }

  static open(dataDir: string, lake: string): StreamKeys {
    const file = join(dataDir, STREAM_KEYS_FILE);
    mkdirSync(dirname(file), { recursive: true });
    closeSync(openSync(file, 'a', 0o600));
    chmodSync(file, 0o600);
    const db = new Database(file);
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    db.pragma('busy_timeout = 5000');
    return new StreamKeys(db, lake);
  }

  hasDocument(hookId: string, documentId: string): boolean {
    return this.#hasDocument.get(hookId, documentId) !== undefined;
  }

  hasDelivery(deliveryId: number): boolean {
    return this.#hasDelivery.get(deliveryId) !== undefined;
  }

  /** Settles the parts a crashed publish left pending (see the class comment). */
  recover(): void {
    const pending = this.#db.prepare('select part, link, file from pending_parts').all() as {
      part: number;
      link: string;
      file: string;
    }[];
    if (pending.length === 0) return;
    this.#db.transaction(() => {
      for (const { part, link, file } of pending) {
        if (!linkedFiles(resolve(this.#lake, link)).includes(file)) {
          this.#db.prepare('delete from documents where part = ?').run(part);
          this.#db.prepare('delete from deliveries where part = ?').run(part);
        }
        this.#db.prepare('delete from pending_parts where part = ?').run(part);
      }
    })();
  }

  /** Records parts and their keys as pending (one durable transaction); returns their ids. */
  record(parts: readonly PendingPart[]): number[] {
    const insertDoc = this.#db.prepare('insert or ignore into documents values (?, ?, ?)');
    const insertDelivery = this.#db.prepare('insert or ignore into deliveries values (?, ?)');
    const insertPart = this.#db.prepare('insert into pending_parts values (?, ?, ?, ?)');
    return this.#db.transaction(() => {
      const ids: number[] = [];
      for (const part of parts) {
        const id = (
          this.#db
            .prepare('update part_seq set next = next + 1 where id = 1 returning next - 1 as id')
            .get() as {
            id: number;
          }
        ).id;
        insertPart.run(id, part.table, relative(this.#lake, part.link), part.file);
        for (const [hook, document] of part.documents ?? []) insertDoc.run(hook, document, id);
        for (const delivery of part.deliveries ?? []) insertDelivery.run(delivery, id);
        ids.push(id);
      }
      return ids;
    })();
  }

  /** The parts are live: clears their pending mark. */
  settle(ids: readonly number[]): void {
    const remove = this.#db.prepare('delete from pending_parts where part = ?');
    this.#db.transaction(() => {
      for (const id of ids) remove.run(id);
    })();
  }

  /** Adds keys already live in the lake (a conversion), not pending. */
  importKeys(documents: Iterable<readonly [string, string]>, deliveries: Iterable<number>): void {
    const insertDoc = this.#db.prepare('insert or ignore into documents values (?, ?, 0)');
    const insertDelivery = this.#db.prepare('insert or ignore into deliveries values (?, 0)');
    this.#db.transaction(() => {
      for (const [hook, document] of documents) insertDoc.run(hook, document);
      for (const delivery of deliveries) insertDelivery.run(delivery);
    })();
  }

  close(): void {
    this.#db.close();
  }
}

/** Imports the keys of a converted warehouse's stream tables (DuckDB relations) into the set. */
export async function importSeenKeys(
  tx: LakeTransaction,
  documents: string,
  deliveries: string,
): Promise<void> {
  const keys = StreamKeys.open(dirname(tx.lake), tx.lake);
  try {
    const docs = await tx.connection.runAndReadAll(`select hook_id, document_id from ${documents}`);
    const dels = await tx.connection.runAndReadAll(`select delivery_id from ${deliveries}`);
    keys.importKeys(
      docs.getRows().map((row) => [String(row[0]), String(row[1])] as const),
      dels.getRows().map((row) => Number(row[0])),
    );
  } finally {
    keys.close();
  }
}
