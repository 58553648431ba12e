import { dirname, join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { DURABLE_PRAGMAS } from '../state/open-sqlite.js';
import { SQLITE_DRIVER } from '../state/sqlite-database.js';
import { noSpaceMessage } from '../util/no-space.js';
import { packageRoot } from '../util/package-root.js';

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

/** A worker's answer: one transaction's commits, or the batches it could not commit. */
type WorkerReply =
  | { readonly commits: readonly { seq: number; ids: number[] }[]; readonly durationMs: number }
  | { readonly seqs: readonly number[]; readonly error: string };

/** What the worker says when it cannot open the inbox (it then ends). */
interface WorkerFatal {
  readonly fatal: string;
}

/**
 * Upper bound of one group commit: bounds the transaction's size (and the latency of its
 * deliveries) under a burst.
 */
export const MAX_GROUP_COMMIT = 2_000;

/**
 * Deliveries posted to the worker and not yet answered, at most: beyond it they wait here, so a
 * slow disk never has every body copied into the worker's queue as well.
 */
export const MAX_IN_FLIGHT = 2 * MAX_GROUP_COMMIT;

/** How long a commit waits for another process's write lock on the inbox before failing (503). */
export const DEFAULT_INBOX_BUSY_TIMEOUT_MS = 5_000;

const WORKER_FILE = join(packageRoot(), 'src', 'sink', 'inbox-commit-worker.cjs');

/**
 * The sink's durable write path with group commit, on a worker thread. Each turn of the event
 * loop posts the deliveries it verified to the worker at once; the worker commits everything
 * posted while its last transaction ran (up to MAX_GROUP_COMMIT) in ONE SQLite transaction in
 * WAL with synchronous=FULL, so it is fsynced before any waiter is resolved: a promise resolved
 * by append() means the delivery survives kill -9 and power loss. One fsync per group instead
 * of per delivery is what makes thousands of acknowledgements per second possible, and since
 * batches are posted without waiting for the previous commit, the event loop reads, verifies
 * and answers requests while the disk syncs instead of taking turns with it. If a commit fails
 * (or the worker dies), every waiter of its batches is rejected (the sink answers 503 and the
 * sender retries); nothing of a failed transaction is kept, and the next batch starts a new
 * worker if needed.
 */
export class InboxWriter {
  readonly #file: string;
  readonly #busyTimeoutMs: number;
  readonly #onCommitted: (deliveries: readonly InboxDelivery[], durationMs: number) => void;
  #worker: Worker | undefined;
  #queue: QueuedDelivery[] = [];
  /** Batches posted and not yet answered, by sequence number, with the worker holding them. */
  readonly #inFlight = new Map<number, { batch: QueuedDelivery[]; worker: Worker }>();
  #seq = 0;
  #inFlightRows = 0;
  #scheduled = false;
  #closed = false;
  #idle: (() => void)[] = [];
  #commits = 0;
  #committed = 0;

  /** `onCommitted` runs after each durable group commit, with how long the transaction took. */
  constructor(
    inboxFile: string,
    options: {
      busyTimeoutMs?: number;
      onCommitted?: (deliveries: readonly InboxDelivery[], durationMs: number) => void;
    } = {},
  ) {
    this.#file = inboxFile;
    this.#busyTimeoutMs = options.busyTimeoutMs ?? DEFAULT_INBOX_BUSY_TIMEOUT_MS;
    this.#onCommitted = options.onCommitted ?? (() => undefined);
  }

  /** Queues a delivery; resolves with its delivery_id once its transaction is durable. */
  append(delivery: InboxDelivery): Promise<number> {
    if (this.#closed) return Promise.reject(new Error('sink: inbox writer is closed'));
    return new Promise((resolve, reject) => {
      this.#queue.push({ delivery, resolve, reject });
      // Wait for the end of this turn so every request read in it goes in the same batch.
      if (!this.#scheduled) {
        this.#scheduled = true;
        setImmediate(() => {
          this.#scheduled = false;
          this.#send();
        });
      }
    });
  }

  /** Resolves once every delivery queued so far has been committed (or refused). */
  drain(): Promise<void> {
    if (this.#isIdle()) return Promise.resolve();
    return new Promise((resolve) => this.#idle.push(resolve));
  }

  /** Drains, then closes the worker's database and ends the thread. */
  async close(): Promise<void> {
    await this.drain();
    this.#closed = true;
    const worker = this.#worker;
    this.#worker = undefined;
    if (!worker) return;
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    worker.ref();
    worker.postMessage({ close: true });
    await exited;
  }

  stats(): { commits: number; committed: number; queued: number } {
    return { commits: this.#commits, committed: this.#committed, queued: this.#queue.length };
  }

  #isIdle(): boolean {
    return this.#queue.length === 0 && this.#inFlight.size === 0 && !this.#scheduled;
  }

  #send(): void {
    while (this.#queue.length > 0 && this.#inFlightRows < MAX_IN_FLIGHT) {
      const batch = this.#queue.splice(0, Math.min(MAX_GROUP_COMMIT, MAX_IN_FLIGHT - this.#inFlightRows));
      const rows = batch.map(({ delivery: d }) => [
        d.hookId,
        d.receivedAt,
        d.body,
        d.body.length,
        d.documents,
      ]);
      const seq = ++this.#seq;
      try {
        const worker = this.#workerNow();
        this.#inFlight.set(seq, { batch, worker });
        this.#inFlightRows += batch.length;
        worker.ref(); // a commit in flight keeps the process alive until it is answered
        worker.postMessage({ seq, rows });
      } catch (error) {
        this.#take(seq);
        const failure = new Error(`inbox worker unavailable: ${describe(error)}`);
        for (const entry of batch) entry.reject(failure);
      }
    }
    this.#checkIdle();
  }

  #checkIdle(): void {
    if (!this.#isIdle()) return;
    // Idle: the commit thread alone must not keep the process alive.
    this.#worker?.unref();
    for (const resolve of this.#idle.splice(0)) resolve();
  }

  #workerNow(): Worker {
    if (this.#worker) return this.#worker;
    const worker = new Worker(WORKER_FILE, {
      workerData: {
        file: this.#file,
        pragmas: [...DURABLE_PRAGMAS, `busy_timeout = ${this.#busyTimeoutMs}`],
        maxRows: MAX_GROUP_COMMIT,
        // The better-sqlite3 this Node can run (see sqlite-database.ts).
        driver: SQLITE_DRIVER,
      },
    });
    let failure: string | undefined;
    worker.on('message', (message: WorkerReply | WorkerFatal) => {
      if ('fatal' in message)
        failure = `inbox worker failed: ${noSpaceMessage(message.fatal, dirname(this.#file)) ?? message.fatal}`;
      else this.#settle(message);
    });
    worker.on('error', (error) => {
      failure ??= `inbox worker failed: ${describe(error)}`;
    });
    // 'exit' always follows 'error': the batches this worker still held are rejected here,
    // never those a newer worker holds.
    worker.on('exit', (code) => {
      if (this.#worker === worker) this.#worker = undefined;
      const seqs = [...this.#inFlight].filter(([, held]) => held.worker === worker).map(([seq]) => seq);
      this.#settle({ seqs, error: failure ?? `inbox worker exited with code ${code}` });
    });
    this.#worker = worker;
    return worker;
  }

  /** Settles the batches a worker answered for. */
  #settle(reply: WorkerReply): void {
    if ('error' in reply) {
      // A full disk says so and names the data directory (SQLite may only say "disk I/O error").
      const failure = new Error(noSpaceMessage(reply.error, dirname(this.#file)) ?? reply.error);
      for (const seq of reply.seqs) {
        for (const entry of this.#take(seq)) entry.reject(failure);
      }
    } else {
      const entries = reply.commits.map(({ seq, ids }) => ({ batch: this.#take(seq), ids }));
      const deliveries = entries.flatMap(({ batch }) => batch.map((entry) => entry.delivery));
      this.#commits += 1;
      this.#committed += deliveries.length;
      try {
        this.#onCommitted(deliveries, reply.durationMs);
      } finally {
        for (const { batch, ids } of entries) {
          for (const [i, entry] of batch.entries()) entry.resolve(ids[i] as number);
        }
      }
    }
    this.#send(); // deliveries held back by MAX_IN_FLIGHT; then idle if nothing is left
  }

  /** Removes and returns a batch in flight (empty if it was already settled). */
  #take(seq: number): QueuedDelivery[] {
    const held = this.#inFlight.get(seq);
    this.#inFlight.delete(seq);
    this.#inFlightRows -= held?.batch.length ?? 0;
    return held?.batch ?? [];
  }
}

/** An error's message, also for errors that lost theirs crossing a thread. */
function describe(error: unknown): string {
  const { message, code } = (error ?? {}) as { message?: unknown; code?: unknown };
  if (typeof message === 'string' && message !== '') return message;
  return typeof code === 'string' ? code : String(error);
}
