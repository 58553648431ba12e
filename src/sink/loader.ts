import type { InboxDb } from '../state/inbox-db.js';
import type { Logger } from '../util/logger.js';
import { noSpaceMessage } from '../util/no-space.js';
import type { HookRegistry } from './hook-registry.js';
import { InboxBatches, MAX_DELIVERIES_PER_PUBLISH, type PublishStream } from './inbox-batches.js';
import { InboxProgress } from './inbox-progress.js';
import type { SchemaValidators } from './schema-validators.js';

export type { PublishStream } from './inbox-batches.js';

/**
 * Assumed duration of a publish before the first one is measured: publishes start this much
 * before they are due so the data is visible within the interval (a publish of a few thousand
 * deliveries takes less).
 */
export const INITIAL_PUBLISH_ESTIMATE_MS = 1_000;

/** Publishes start at least this long before they are due (see #arm for the lead). */
export const MIN_PUBLISH_LEAD_MS = 1_000;

/**
 * Assumed cost of publishing one delivery until a cycle of at least MEASURE_FROM_DELIVERIES
 * is measured: a full batch's publish on two cores (figures: bench/RESULTS.md, "Figures moved
 * out of code comments").
 */
export const INITIAL_MS_PER_DELIVERY = 0.15;
const MEASURE_FROM_DELIVERIES = 1_000;

/**
 * While a publish is not yet due, its start is re-computed this often: under a flood the
 * backlog, and so the time the publish will take, keeps growing.
 */
const REARM_MS = 1_000;

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
  readonly #batches: InboxBatches;
  readonly #progress: InboxProgress;
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
    this.#batches = new InboxBatches(options);
    this.#progress = new InboxProgress(options.inbox);
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
      const pending = await this.#batches.readPending(0, Number.MAX_SAFE_INTEGER);
      if (pending.deliveries === 0) break;
      const done = await this.#batches.publishPending(pending);
      this.#lastPublishDurationMs = performance.now() - started;
      if (pending.deliveries >= MEASURE_FROM_DELIVERIES)
        this.#msPerDelivery = this.#lastPublishDurationMs / pending.deliveries;
      deliveries += done.deliveries;
      documents += done.documents;
      publishes += done.publishes;
      if (!done.complete || pending.deliveries < MAX_DELIVERIES_PER_PUBLISH) break;
    }
    this.#batches.pruneOld();
    if (publishes > 0) await this.#maintain();
    const result = { deliveries, documents, publishes };
    if (publishes > 0) this.#o.onPublished(result);
    return result;
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

  #refreshOldest(): void {
    this.#oldestPendingMs = this.#progress.oldestPendingMs();
  }
}
