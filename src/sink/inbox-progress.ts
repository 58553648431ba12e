import { type InboxDb, LOADED_THROUGH_SQL } from '../state/inbox-db.js';
import type { Statement } from '../state/sqlite-database.js';

/**
 * How far the loader has come, read from the inbox itself (its watermark and the deliveries
 * past it), so any connection can tell: the loader's own, and the sink's for /healthz,
 * /metrics and stats(), wherever the loader runs. Quarantined deliveries (inbox-quarantine.ts)
 * are not waiting to be published: they count apart.
 */
export class InboxProgress {
  readonly #count: Statement<[], { n: number }>;
  readonly #oldest: Statement<[], { received_at: string }>;
  readonly #loadedAt: Statement<[], { loaded_at: string | null }>;
  readonly #quarantined: Statement<[], { n: number }> | undefined;

  constructor(inbox: InboxDb) {
    const db = inbox.sqlite;
    // `status` reads an inbox of an older release as it is (read-only): one from before the
    // quarantine has none.
    const quarantine = db
      .prepare("select 1 from pragma_table_info('deliveries') where name = 'quarantined_at'")
      .get();
    const waiting = `delivery_id > ${LOADED_THROUGH_SQL}${quarantine ? ' and quarantined_at is null' : ''}`;
    this.#count = db.prepare(`select count(*) as n from deliveries where ${waiting}`);
    this.#oldest = db.prepare(
      `select received_at from deliveries where ${waiting} order by delivery_id limit 1`,
    );
    this.#loadedAt = db.prepare('select loaded_at from loader_progress where id = 1');
    this.#quarantined = quarantine
      ? db.prepare('select count(*) as n from deliveries where quarantined_at is not null')
      : undefined;
  }

  /** Deliveries set aside by the loader, kept in the inbox until an operator re-queues or drops them. */
  quarantined(): number {
    return this.#quarantined?.get()?.n ?? 0;
  }

  /** Acknowledged deliveries not yet published (quarantined ones apart). */
  backlog(): number {
    return this.#count.get()?.n ?? 0;
  }

  /** Unix ms the oldest unpublished delivery was received; undefined when none waits. */
  oldestPendingMs(): number | undefined {
    const row = this.#oldest.get();
    return row ? Date.parse(row.received_at) : undefined;
  }

  /** Seconds since the oldest unpublished delivery was received (0 when none waits). */
  publishLagSeconds(): number {
    const oldest = this.oldestPendingMs();
    return oldest === undefined ? 0 : Math.max(0, (Date.now() - oldest) / 1000);
  }

  /** ISO-8601 time of the last publish (by this process or an earlier one), null before the first. */
  lastPublishAt(): string | null {
    return this.#loadedAt.get()?.loaded_at ?? null;
  }

  /** Unix seconds of the last publish, 0 before the first. */
  lastPublishSeconds(): number {
    const loadedAt = this.lastPublishAt();
    return loadedAt ? Date.parse(loadedAt) / 1000 : 0;
  }
}
