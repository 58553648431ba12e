import type { InboxDb } from '../state/inbox-db.js';
import type { Statement } from '../state/sqlite-database.js';
import { firstLine } from '../util/first-line.js';

/** A delivery the loader set aside, as `sink quarantine list` shows it (never its body). */
export interface QuarantinedDelivery {
  readonly deliveryId: number;
  readonly hookId: string;
  readonly receivedAt: string;
  readonly bytes: number;
  readonly documents: number;
  readonly quarantinedAt: string;
  readonly reason: string;
}

/** The longest reason kept: a first line, cut (an error can quote a whole document). */
const MAX_REASON_CHARS = 500;

/**
 * Deliveries set aside in the inbox (inbox migration 0002): acknowledged, but their rows cannot
 * be built, or they alone fail a publish that succeeds without them. They stay in the inbox,
 * never published and never pruned, until an operator re-queues or drops them (`sink
 * quarantine`), so one bad document never blocks those behind it and is never lost silently.
 */
export class InboxQuarantine {
  readonly #set: Statement<[string, string, number]>;
  readonly #list: Statement<[], Record<string, unknown>>;
  readonly #body: Statement<[number], { body: Buffer }>;
  readonly #copy: Statement<[number]>;
  readonly #drop: Statement<[number]>;
  readonly #inbox: InboxDb;

  constructor(inbox: InboxDb) {
    this.#inbox = inbox;
    const db = inbox.sqlite;
    this.#set = db.prepare(
      `update deliveries set quarantined_at = ?, quarantine_reason = ?
       where delivery_id = ? and quarantined_at is null`,
    );
    this.#list = db.prepare(
      `select delivery_id as deliveryId, hook_id as hookId, received_at as receivedAt, bytes, documents,
              quarantined_at as quarantinedAt, quarantine_reason as reason
       from deliveries where quarantined_at is not null order by delivery_id`,
    );
    this.#body = db.prepare(
      'select body from deliveries where delivery_id = ? and quarantined_at is not null',
    );
    // A copy at the end of the inbox: past the loader's watermark, so the next publish takes it.
    this.#copy = db.prepare(
      `insert into deliveries (hook_id, received_at, body, bytes, documents)
       select hook_id, received_at, body, bytes, documents from deliveries
       where delivery_id = ? and quarantined_at is not null`,
    );
    this.#drop = db.prepare('delete from deliveries where delivery_id = ? and quarantined_at is not null');
  }

  /** Sets delivery `deliveryId` aside for `reason` (its first line); false when it already was. */
  set(deliveryId: number, reason: unknown, at = new Date()): boolean {
    const line = firstLine(reason).slice(0, MAX_REASON_CHARS);
    return this.#set.run(at.toISOString(), line, deliveryId).changes > 0;
  }

  list(): QuarantinedDelivery[] {
    return this.#list.all() as unknown as QuarantinedDelivery[];
  }

  /** The exact body that was verified and acknowledged; undefined when no such delivery is quarantined. */
  body(deliveryId: number): Buffer | undefined {
    return this.#body.get(deliveryId)?.body;
  }

  /**
   * Puts a quarantined delivery back in the queue, as a new delivery at the end of the inbox
   * (one transaction: the copy, then the quarantined row's removal); returns its new id, or
   * undefined when no such delivery is quarantined. Its received_at is kept.
   */
  requeue(deliveryId: number): number | undefined {
    return this.#inbox.sqlite
      .transaction(() => {
        const copied = this.#copy.run(deliveryId);
        if (copied.changes === 0) return undefined;
        this.#drop.run(deliveryId);
        return Number(copied.lastInsertRowid);
      })
      .immediate();
  }

  /** Deletes a quarantined delivery for good; false when no such delivery is quarantined. */
  drop(deliveryId: number): boolean {
    return this.#drop.run(deliveryId).changes > 0;
  }
}
