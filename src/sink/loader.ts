import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { ValidateFunction } from 'ajv';
import type { Row } from '../normalize/rows.js';
import { type InboxDb, LOADED_THROUGH_SQL } from '../state/inbox-db.js';
import type { Statement } from '../state/sqlite-database.js';
import { firstLine } from '../util/first-line.js';
import type { Logger } from '../util/logger.js';
import { noSpaceMessage } from '../util/no-space.js';
import type { PublishResult, StreamBatch } from '../warehouse/index.js';
import { buildApart } from './build-apart.js';
import type { BatchLookups, StoredDelivery } from './build-stream-batch.js';
import type { HookRegistry } from './hook-registry.js';
import { InboxProgress } from './inbox-progress.js';
import { InboxQuarantine } from './inbox-quarantine.js';
import { type ApartResult, type ApartSteps, publishApart } from './publish-apart.js';
import type { SchemaValidators } from './schema-validators.js';
import { isWholePublishFailure, WholeBatchError } from './whole-publish-failure.js';

/**
 * Deliveries read from the inbox per synchronous query: ~1 MB of 2 KB bodies, a few ms, so
 * the loader never holds the event loop long enough to delay acknowledgements much.
 */
export const LOADER_READ_BATCH = 500;

/** Deliveries per publish (~40 MB of rows at 2 KB): bounds memory after a long backlog. */
export const MAX_DELIVERIES_PER_PUBLISH = 20_000;

/**
 * Published deliveries are kept this long after they were received (for `status` and
 * forensics), then pruned: after a backlog longer than this, right after their publish.
 */
export const INBOX_RETENTION_MS = 7 * 24 * 3_600_000;

/**
 * Assumed duration of a publish before the first one is measured: publishes start this much
 * before they are due so the data is visible within the interval (a publish of a few thousand
 * deliveries takes a few hundred ms).
 */
export const INITIAL_PUBLISH_ESTIMATE_MS = 1_000;

/** Publishes start at least this long before they are due (see #arm for the lead). */
export const MIN_PUBLISH_LEAD_MS = 1_000;

/**
 * Assumed cost of publishing one delivery until a cycle of at least MEASURE_FROM_DELIVERIES
 * is measured (about 3 s for a full batch of 20,000 on 2 cores).
 */
export const INITIAL_MS_PER_DELIVERY = 0.15;
const MEASURE_FROM_DELIVERIES = 1_000;

/**
 * While a publish is not yet due, its start is re-computed this often: under a flood the
 * backlog, and so the time the publish will take, keeps growing.
 */
const REARM_MS = 1_000;

/** Loaded deliveries pruned per cycle: keeps the delete short. */
const PRUNE_BATCH = 5_000;

/** Deliveries read from the inbox for one publish; `deliveries` counts those read, set aside or not. */
interface PendingBatch {
  readonly batch: StreamBatch;
  readonly deliveries: number;
  readonly lastId: number;
}

export type PublishStream = (dataDir: string, batch: StreamBatch) => Promise<PublishResult>;

/**
 * Lake upkeep (merging closed days' parts, removing old versions) runs after a publish at
 * most this often, and at the first publish of a new UTC day (see maintainLake).
 */
export const MAINTAIN_EVERY_MS = 10 * 60_000;

export interface LoaderOptions {
  readonly dataDir: string;
  readonly inbox: InboxDb;
  readonly registry: HookRegistry;
  /** undefined: schema validation off (valid_schema NULL). */
  readonly validators: SchemaValidators | undefined;
  readonly publishIntervalMs: number;
  readonly publish: PublishStream;
  /** Lake upkeep after publishes (maintainLake); none when absent. */
  readonly maintain?: (dataDir: string) => Promise<unknown>;
  readonly logger: Logger;
  readonly onPublished: (result: LoadResult) => void;
  readonly onPublishFailed: (error: Error) => void;
}

/** What one load cycle moved into the warehouse. */
export interface LoadResult {
  readonly deliveries: number;
  readonly documents: number;
  readonly publishes: number;
}

/** What the sink asks of its loader, whether it runs in-process (Loader) or on a thread (LoaderThread). */
export interface SinkLoader {
  /** Called after each group commit with the time of its first delivery and how many it held. */
  noteAcknowledged(receivedAt: string, deliveries: number): void;
  /** Loads and publishes everything pending now (after a cycle already running). */
  loadNow(): Promise<LoadResult>;
  /** Stops the schedule and waits for a running cycle; loadNow() still works afterwards (final flush). */
  stop(): Promise<void>;
  /** Releases what the loader holds of its own (after stop and the final flush). */
  close(): Promise<void>;
}

/**
 * Moves acknowledged deliveries from the inbox into the warehouse. A publish is due at most
 * `publishIntervalMs` after the oldest unpublished acknowledgement, started early by the
 * expected publish duration so the data is visible by then; an idle sink never publishes. Each cycle reads
 * the deliveries past the watermark in short batches by delivery_id, publishes them with
 * publishStream and only then moves the watermark past them: a crash in between re-publishes
 * them, and the warehouse drops the duplicates by key. A failed publish leaves the inbox as
 * it was and is retried one interval later, unless the failure may be one delivery's: then
 * the deliveries whose rows cannot be built, or that fail a publish alone, are set aside
 * (quarantined in the inbox: inbox-quarantine.ts, publish-apart.ts) and the others publish.
 */
export class Loader implements SinkLoader {
  readonly #o: LoaderOptions;
  readonly #pending: Statement<[number, number, number], StoredDelivery>;
  readonly #progress: InboxProgress;
  readonly #quarantine: InboxQuarantine;
  readonly #mark: Statement<[number, string, number]>;
  readonly #skip: Statement<[number, number]>;
  readonly #oldestLoaded: Statement<[], { delivery_id: number; received_at: string }>;
  readonly #prune: Statement<[number, string]>;
  #timer: NodeJS.Timeout | undefined;
  /** While nothing waits: a look at the inbox now and then, for deliveries re-queued by another process. */
  #idleTimer: NodeJS.Timeout | undefined;
  #running: Promise<LoadResult> | undefined;
  #oldestPendingMs: number | undefined;
  #lastPublishDurationMs = INITIAL_PUBLISH_ESTIMATE_MS;
  #msPerDelivery = INITIAL_MS_PER_DELIVERY;
  /** Deliveries acknowledged since the last cycle started. */
  #unpublished = 0;
  #stopped = false;
  /** When upkeep last ran (0: not yet in this process, so the first publish runs it). */
  #maintainedAt = 0;

  constructor(options: LoaderOptions) {
    this.#o = options;
    const db = options.inbox.sqlite;
    this.#pending = db.prepare(
      `select delivery_id, hook_id, received_at, body, bytes, documents from deliveries
       where delivery_id > max(?, ${LOADED_THROUGH_SQL}) and delivery_id <= ? and quarantined_at is null
       order by delivery_id limit ?`,
    );
    this.#progress = new InboxProgress(options.inbox);
    this.#quarantine = new InboxQuarantine(options.inbox);
    this.#mark = db.prepare(
      'update loader_progress set loaded_through = ?, loaded_at = ? where id = 1 and loaded_through < ?',
    );
    // Past deliveries that were all set aside: the watermark moves, the last publish's time does not.
    this.#skip = db.prepare(
      'update loader_progress set loaded_through = ? where id = 1 and loaded_through < ?',
    );
    // Quarantined deliveries are kept until an operator re-queues or drops them: never pruned.
    this.#oldestLoaded = db.prepare(
      `select delivery_id, received_at from deliveries where delivery_id <= ${LOADED_THROUGH_SQL}
       and quarantined_at is null order by delivery_id limit 1`,
    );
    // Oldest first, by delivery_id (received_at follows it): no index on received_at needed;
    // #pruneOld looks at the oldest one first, so a cycle with nothing to prune reads one row.
    this.#prune = db.prepare(
      `delete from deliveries where delivery_id in (
         select delivery_id from deliveries where delivery_id <= ${LOADED_THROUGH_SQL}
          and quarantined_at is null order by delivery_id limit ?) and received_at < ?`,
    );
    this.#refreshOldest();
    this.#arm();
  }

  noteAcknowledged(receivedAt: string, deliveries: number): void {
    this.#unpublished += deliveries;
    if (this.#oldestPendingMs !== undefined) return;
    this.#oldestPendingMs = Date.parse(receivedAt);
    this.#stopIdle();
    this.#arm();
  }

  async loadNow(): Promise<LoadResult> {
    // A loop, not an if: another caller may have started a cycle while this one waited.
    while (this.#running) await this.#running.catch(() => undefined);
    return this.#cycle();
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#stopIdle();
    await this.#running?.catch(() => undefined);
  }

  /** Nothing of its own to release: the sink closes the inbox it was given. */
  close(): Promise<void> {
    return Promise.resolve();
  }

  /**
   * Sets the timer of the next publish: due `publishIntervalMs` after the oldest unpublished
   * acknowledgement, started earlier by 1.5x the time it is expected to take (the last
   * publish's, or the backlog's size at the measured cost per delivery, whichever is longer),
   * but never more than half an interval early: a flood the loader cannot keep up with is
   * published in interval-sized steps, not in a continuous stream of publishes that would
   * take the event loop from the acknowledgements.
   */
  #arm(delayMs?: number): void {
    if (this.#stopped || this.#timer || this.#running) return;
    if (this.#oldestPendingMs === undefined) {
      this.#idle();
      return;
    }
    this.#stopIdle();
    if (delayMs !== undefined) {
      this.#setTimer(delayMs, true);
      return;
    }
    const expected = Math.max(this.#lastPublishDurationMs, this.#unpublished * this.#msPerDelivery);
    const lead = Math.min(Math.max(MIN_PUBLISH_LEAD_MS, expected * 1.5), this.#o.publishIntervalMs / 2);
    const wait = this.#oldestPendingMs + this.#o.publishIntervalMs - lead - Date.now();
    if (wait > REARM_MS) this.#setTimer(REARM_MS, false);
    else this.#setTimer(Math.max(0, wait), true);
  }

  /** Looks at the inbox again in an interval (at least REARM_MS) while nothing waits. */
  #idle(): void {
    if (this.#idleTimer) return;
    this.#idleTimer = setTimeout(
      () => {
        this.#idleTimer = undefined;
        if (this.#timer || this.#running) return;
        this.#refreshOldest();
        this.#arm();
      },
      Math.max(this.#o.publishIntervalMs, REARM_MS),
    );
    this.#idleTimer.unref();
  }

  #stopIdle(): void {
    clearTimeout(this.#idleTimer);
    this.#idleTimer = undefined;
  }

  #setTimer(delayMs: number, publish: boolean): void {
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      if (publish) this.#cycle().catch(() => undefined);
      else this.#arm();
    }, delayMs);
    this.#timer.unref();
  }

  #cycle(): Promise<LoadResult> {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#unpublished = 0;
    const run = this.#loadAll();
    this.#running = run;
    run.then(
      () => {
        this.#running = undefined;
        this.#refreshOldest();
        this.#arm();
      },
      (error: Error) => {
        this.#running = undefined;
        this.#o.onPublishFailed(error);
        this.#o.logger.error(
          { err: noSpaceMessage(error, this.#o.dataDir) ?? error.message },
          'sink: publish failed; retrying next interval',
        );
        this.#refreshOldest();
        this.#arm(this.#o.publishIntervalMs);
      },
    );
    return run;
  }

  async #loadAll(): Promise<LoadResult> {
    let deliveries = 0;
    let documents = 0;
    let publishes = 0;
    for (;;) {
      const started = performance.now();
      const pending = await this.#readPending(0, Number.MAX_SAFE_INTEGER);
      if (pending.deliveries === 0) break;
      const done = await this.#publishPending(pending);
      this.#lastPublishDurationMs = performance.now() - started;
      if (pending.deliveries >= MEASURE_FROM_DELIVERIES)
        this.#msPerDelivery = this.#lastPublishDurationMs / pending.deliveries;
      deliveries += done.deliveries;
      documents += done.documents;
      publishes += done.publishes;
      if (!done.complete || pending.deliveries < MAX_DELIVERIES_PER_PUBLISH) break;
    }
    this.#pruneOld();
    if (publishes > 0) await this.#maintain();
    const result = { deliveries, documents, publishes };
    if (publishes > 0) this.#o.onPublished(result);
    return result;
  }

  /**
   * Publishes one batch read from the inbox and moves the watermark past it. When the publish
   * fails for a reason that may be one delivery's, the batch is published apart (publish-apart.ts).
   */
  async #publishPending(pending: PendingBatch): Promise<ApartResult> {
    const ids = pending.batch.deliveries.map((row) => row.delivery_id as number);
    if (ids.length > 0) {
      try {
        await this.#o.publish(this.#o.dataDir, pending.batch);
      } catch (error) {
        if (isWholePublishFailure(error, this.#o.dataDir)) throw error;
        this.#o.logger.warn(
          { err: firstLine(error), deliveries: ids.length },
          'sink: publish failed; looking for the delivery that fails it',
        );
        const apart = await publishApart(ids, error, this.#apartSteps());
        if (apart.complete) this.#skip.run(pending.lastId, pending.lastId);
        return apart;
      }
      this.#mark.run(pending.lastId, new Date().toISOString(), pending.lastId);
    } else {
      this.#skip.run(pending.lastId, pending.lastId);
    }
    const documents = pending.batch.documents.length;
    return { deliveries: ids.length, documents, publishes: ids.length > 0 ? 1 : 0, complete: true };
  }

  /** What publishApart does through this loader: read and publish a part, move the watermark, set aside. */
  #apartSteps(): ApartSteps {
    return {
      publish: async (ids) => {
        const first = ids[0] as number;
        const part = await this.#readPending(first - 1, ids[ids.length - 1] as number);
        if (part.batch.deliveries.length > 0) await this.#o.publish(this.#o.dataDir, part.batch);
        return { deliveries: part.batch.deliveries.length, documents: part.batch.documents.length };
      },
      published: (lastId, held) =>
        this.#o.inbox.sqlite.transaction(() => {
          for (const suspect of held) this.#setAside(suspect.deliveryId, suspect.error);
          this.#mark.run(lastId, new Date().toISOString(), lastId);
        })(),
      setAside: (suspect) => this.#setAside(suspect.deliveryId, suspect.error),
      isWhole: (error) => isWholePublishFailure(error, this.#o.dataDir),
    };
  }

  /** Quarantines a delivery (inbox-quarantine.ts), saying so in the log. */
  #setAside(deliveryId: number, error: unknown): void {
    if (!this.#quarantine.set(deliveryId, error)) return;
    this.#o.logger.warn(
      { deliveryId, err: firstLine(error) },
      'sink: delivery quarantined: it cannot be published; the others publish (see `sink quarantine list`)',
    );
  }

  /** Runs lake upkeep when due; a failure is logged, never a failed publish (the data is in). */
  async #maintain(): Promise<void> {
    const now = Date.now();
    const newDay =
      new Date(now).toISOString().slice(0, 10) !== new Date(this.#maintainedAt).toISOString().slice(0, 10);
    if (!this.#o.maintain || (now - this.#maintainedAt < MAINTAIN_EVERY_MS && !newDay)) return;
    this.#maintainedAt = now;
    await this.#o
      .maintain(this.#o.dataDir)
      .catch((error: Error) =>
        this.#o.logger.warn({ err: error.message }, 'sink: lake upkeep failed; retrying later'),
      );
  }

  /** Deletes published deliveries older than the retention, oldest first, PRUNE_BATCH at most. */
  #pruneOld(): void {
    const cutoff = new Date(Date.now() - INBOX_RETENTION_MS).toISOString();
    const oldest = this.#oldestLoaded.get();
    if (oldest && oldest.received_at < cutoff) this.#prune.run(PRUNE_BATCH, cutoff);
  }

  /**
   * Up to MAX_DELIVERIES_PER_PUBLISH pending deliveries after `after` and through `through` as
   * one stream batch, read and parsed LOADER_READ_BATCH at a time with a yield to the event
   * loop in between. A delivery whose rows cannot be built is set aside (build-apart.ts).
   */
  async #readPending(after: number, through: number): Promise<PendingBatch> {
    const hooks = this.#o.registry.warehouseRows();
    const lookups = this.#lookups(hooks);
    const batch: StreamBatch = { documents: [], deliveries: [], hooks };
    let lastId = after;
    let count = 0;
    while (count < MAX_DELIVERIES_PER_PUBLISH) {
      const limit = Math.min(LOADER_READ_BATCH, MAX_DELIVERIES_PER_PUBLISH - count);
      const rows = this.#pending.all(lastId, through, limit);
      if (rows.length === 0) break;
      const part = buildApart(rows, lookups, hooks, (delivery, error) =>
        this.#setAside(delivery.delivery_id, error),
      );
      // Loops, not push(...rows): a delivery may carry more documents than a call takes arguments.
      for (const row of part.documents) batch.documents.push(row);
      for (const row of part.deliveries) batch.deliveries.push(row);
      lastId = (rows[rows.length - 1] as StoredDelivery).delivery_id;
      count += rows.length;
      if (rows.length < limit) break;
      await yieldToLoop();
    }
    return { batch, deliveries: count, lastId };
  }

  #lookups(hookRows: readonly Row[]): BatchLookups {
    const hooks = new Map<string, { searchId: number | null; searchType: string | null }>();
    for (const row of hookRows) {
      hooks.set(String(row.hook_id), {
        searchId: typeof row.search_id === 'number' ? row.search_id : null,
        searchType: typeof row.search_type === 'string' ? row.search_type : null,
      });
    }
    const validators = new Map<string | null, ValidateFunction | undefined>();
    const source = this.#o.validators;
    return {
      hooks,
      validator(searchType) {
        if (!source) return undefined;
        if (!validators.has(searchType)) {
          try {
            validators.set(searchType, source.validator(searchType));
          } catch (error) {
            // A stored schema that does not compile fails every delivery of its type alike.
            throw new WholeBatchError(`schema of ${searchType}: ${firstLine(error)}`, { cause: error });
          }
        }
        return validators.get(searchType);
      },
    };
  }

  #refreshOldest(): void {
    this.#oldestPendingMs = this.#progress.oldestPendingMs();
  }
}
