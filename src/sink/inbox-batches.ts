/**
 * The inbox's side of a load cycle (the Loader keeps the schedule): reading the deliveries past
 * the watermark as stream batches, publishing them and moving the watermark, setting aside the
 * deliveries that cannot be published (build-apart.ts, publish-apart.ts, inbox-quarantine.ts),
 * and pruning published deliveries past the retention.
 */
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { ValidateFunction } from 'ajv';
import type { Row } from '../normalize/rows.js';
import { type InboxDb, LOADED_THROUGH_SQL } from '../state/inbox-db.js';
import type { Statement } from '../state/sqlite-database.js';
import { firstLine } from '../util/first-line.js';
import type { Logger } from '../util/logger.js';
import type { PublishResult, StreamBatch } from '../warehouse/index.js';
import { buildApart } from './build-apart.js';
import type { BatchLookups, StoredDelivery } from './build-stream-batch.js';
import type { HookRegistry } from './hook-registry.js';
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

/** Loaded deliveries pruned per cycle: keeps the delete short. */
const PRUNE_BATCH = 5_000;

/** Deliveries read from the inbox for one publish; `deliveries` counts those read, set aside or not. */
export interface PendingBatch {
  readonly batch: StreamBatch;
  readonly deliveries: number;
  readonly lastId: number;
}

export type PublishStream = (dataDir: string, batch: StreamBatch) => Promise<PublishResult>;

export interface InboxBatchesOptions {
  readonly dataDir: string;
  readonly inbox: InboxDb;
  readonly registry: HookRegistry;
  /** undefined: schema validation off (valid_schema NULL). */
  readonly validators: SchemaValidators | undefined;
  readonly publish: PublishStream;
  readonly logger: Logger;
}

export class InboxBatches {
  readonly #o: InboxBatchesOptions;
  readonly #pending: Statement<[number, number, number], StoredDelivery>;
  readonly #quarantine: InboxQuarantine;
  readonly #mark: Statement<[number, string, number]>;
  readonly #skip: Statement<[number, number]>;
  readonly #oldestLoaded: Statement<[], { delivery_id: number; received_at: string }>;
  readonly #prune: Statement<[number, string]>;

  constructor(options: InboxBatchesOptions) {
    this.#o = options;
    const db = options.inbox.sqlite;
    this.#pending = db.prepare(
      `select delivery_id, hook_id, received_at, body, bytes, documents from deliveries
       where delivery_id > max(?, ${LOADED_THROUGH_SQL}) and delivery_id <= ? and quarantined_at is null
       order by delivery_id limit ?`,
    );
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
    // pruneOld looks at the oldest one first, so a cycle with nothing to prune reads one row.
    this.#prune = db.prepare(
      `delete from deliveries where delivery_id in (
         select delivery_id from deliveries where delivery_id <= ${LOADED_THROUGH_SQL}
          and quarantined_at is null order by delivery_id limit ?) and received_at < ?`,
    );
  }

  /**
   * Publishes one batch read from the inbox and moves the watermark past it. When the publish
   * fails for a reason that may be one delivery's, the batch is published apart (publish-apart.ts).
   */
  async publishPending(pending: PendingBatch): Promise<ApartResult> {
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

  /** What publishApart does here: read and publish a part, move the watermark, set aside. */
  #apartSteps(): ApartSteps {
    return {
      publish: async (ids) => {
        const first = ids[0] as number;
        const part = await this.readPending(first - 1, ids[ids.length - 1] as number);
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

  /** Deletes published deliveries older than the retention, oldest first, PRUNE_BATCH at most. */
  pruneOld(): void {
    const cutoff = new Date(Date.now() - INBOX_RETENTION_MS).toISOString();
    const oldest = this.#oldestLoaded.get();
    if (oldest && oldest.received_at < cutoff) this.#prune.run(PRUNE_BATCH, cutoff);
  }

  /**
   * Up to MAX_DELIVERIES_PER_PUBLISH pending deliveries after `after` and through `through` as
   * one stream batch, read and parsed LOADER_READ_BATCH at a time with a yield to the event
   * loop in between. A delivery whose rows cannot be built is set aside (build-apart.ts).
   */
  async readPending(after: number, through: number): Promise<PendingBatch> {
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
}
