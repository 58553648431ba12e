/**
 * The sink's durable inbox (<dataDir>/inbox.sqlite, WAL, synchronous=FULL): every delivery
 * is committed here before it is acknowledged, and the loader moves it into the warehouse.
 * A file of its own, so that a sync's checkpoints never hold the lock acknowledgements need.
 * Migrations are generated into sql/inbox/ by `npm run db:generate`.
 */
import { blob, index, integer, sql, sqliteTable, text } from './drizzle.js';

export const deliveries = sqliteTable(
  'deliveries',
  {
    deliveryId: integer('delivery_id').primaryKey({ autoIncrement: true }),
    hookId: text('hook_id').notNull(),
    receivedAt: text('received_at').notNull(),
    /** The exact raw body that was verified. */
    body: blob('body', { mode: 'buffer' }).notNull(),
    bytes: integer('bytes').notNull(),
    documents: integer('documents').notNull(),
    /**
     * No longer written (inbox migration 0001): what is published is loader_progress's
     * watermark. Kept so that an upgraded inbox is not rewritten.
     */
    loadedAt: text('loaded_at'),
    /**
     * Set when the loader set the delivery aside (inbox migration 0002): its rows could not be
     * built, or it alone failed a publish that succeeds without it. A quarantined delivery is
     * never published nor pruned; `sink quarantine` lists, re-queues or drops it.
     */
    quarantinedAt: text('quarantined_at'),
    /** Why, in one line (the error of the build or of the publish). */
    quarantineReason: text('quarantine_reason'),
  },
  // Only quarantined deliveries (a handful) are in it: counting them for /metrics and status
  // reads the index, not a week of deliveries, and an acknowledgement's insert does not touch it.
  (t) => [index('deliveries_quarantined_idx').on(t.deliveryId).where(sql`quarantined_at is not null`)],
);

/**
 * The loader's watermark, one row: every delivery with delivery_id <= loaded_through is in
 * the published warehouse. Deliveries are committed by one writer in delivery_id order and
 * published in that order, so the published ones are always a prefix: one small update per
 * publish instead of one per delivery.
 */
export const loaderProgress = sqliteTable('loader_progress', {
  id: integer('id').primaryKey(),
  loadedThrough: integer('loaded_through').notNull(),
  /** ISO-8601 UTC time of the last publish (null before the first). */
  loadedAt: text('loaded_at'),
});
