import type { Statement, Transaction } from 'better-sqlite3';
import type { InboxDb } from '../state/inbox-db.js';

/** A verified delivery to keep: the exact raw body and what the loader needs about it. */
export interface InboxDelivery {
  readonly hookId: string;
  /** ISO-8601 UTC time the sink received it. */
  readonly receivedAt: string;
  readonly body: Buffer;
  readonly documents: number;
}

interface QueuedDelivery {
  readonly delivery: InboxDelivery;
  resolve(deliveryId: number): void;
  reject(error: Error): void;
}

/**
 * Upper bound of one group commit. Far above what arrives in one event-loop turn at the
 * target rate (5,000/s), it only bounds the time one transaction blocks the loop under a burst.
 */
export const MAX_GROUP_COMMIT = 2_000;

/**
 * The sink's durable write path with group commit. Deliveries of every request that arrives in
 * the same event-loop turn are queued, then written in ONE SQLite transaction on setImmediate;
 * the inbox runs in WAL with synchronous=FULL, so that commit is fsynced before any waiter is
 * resolved: a promise resolved by append() means the delivery survives kill -9 and power loss.
 * One fsync per batch instead of per delivery is what makes thousands of acknowledgements per
 * second possible. If the commit fails, every waiter of the batch is rejected (the sink answers
 * 503 and the sender retries); nothing of a failed transaction is kept.
 *
 * The hot path uses better-sqlite3 prepared statements directly on the inbox handle rather
 * than drizzle's query builder, which re-builds and re-prepares SQL on every call.
 */
export class InboxWriter {
  readonly #insert: Statement<[string, string, Buffer, number, number]>;
  readonly #commit: Transaction<(batch: readonly QueuedDelivery[]) => number[]>;
  readonly #onCommitted: (deliveries: readonly InboxDelivery[], durationMs: number) => void;
  #queue: QueuedDelivery[] = [];
  #scheduled = false;
  #idle: (() => void)[] = [];
  #commits = 0;
  #committed = 0;

  /** `onCommitted` runs after each durable group commit, with how long the transaction took. */
  constructor(
    inbox: InboxDb,
    onCommitted: (deliveries: readonly InboxDelivery[], durationMs: number) => void = () => undefined,
  ) {
    this.#insert = inbox.sqlite.prepare(
      'insert into deliveries (hook_id, received_at, body, bytes, documents) values (?, ?, ?, ?, ?)',
    );
    this.#commit = inbox.sqlite.transaction((batch: readonly QueuedDelivery[]) =>
      batch.map(({ delivery: d }) =>
        Number(this.#insert.run(d.hookId, d.receivedAt, d.body, d.body.length, d.documents).lastInsertRowid),
      ),
    );
    this.#onCommitted = onCommitted;
  }

  /** Queues a delivery; resolves with its delivery_id once its transaction is durable. */
  append(delivery: InboxDelivery): Promise<number> {
    return new Promise((resolve, reject) => {
      this.#queue.push({ delivery, resolve, reject });
      this.#schedule();
    });
  }

  /** Resolves once every delivery queued so far has been committed (or refused). */
  drain(): Promise<void> {
    if (this.#queue.length === 0 && !this.#scheduled) return Promise.resolve();
    return new Promise((resolve) => this.#idle.push(resolve));
  }

  stats(): { commits: number; committed: number; queued: number } {
    return { commits: this.#commits, committed: this.#committed, queued: this.#queue.length };
  }

  #schedule(): void {
    if (this.#scheduled) return;
    this.#scheduled = true;
    setImmediate(() => this.#flush());
  }

  #flush(): void {
    this.#scheduled = false;
    this.#commitBatch(this.#queue.splice(0, MAX_GROUP_COMMIT));
    if (this.#queue.length > 0) this.#schedule();
    else for (const resolve of this.#idle.splice(0)) resolve();
  }

  #commitBatch(batch: QueuedDelivery[]): void {
    let ids: number[];
    const started = performance.now();
    try {
      ids = this.#commit(batch);
    } catch (error) {
      const failure = error instanceof Error ? error : new Error(String(error));
      for (const entry of batch) entry.reject(failure);
      return;
    }
    this.#commits += 1;
    this.#committed += batch.length;
    this.#onCommitted(
      batch.map((entry) => entry.delivery),
      performance.now() - started,
    );
    for (const [i, entry] of batch.entries()) entry.resolve(ids[i] as number);
  }
}
