/**
 * The sink's durable inbox (<dataDir>/inbox.sqlite, WAL, synchronous=FULL): every delivery
 * is committed here before it is acknowledged, and the loader moves it into the warehouse.
 * A file of its own, so that a sync's checkpoints never hold the lock acknowledgements need.
 * Migrations are generated into sql/inbox/ by `npm run db:generate`.
 */
import { blob, index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';

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
    /** Set when the loader has published this delivery into the warehouse. */
    loadedAt: text('loaded_at'),
  },
  (t) => [index('deliveries_pending_idx').on(t.loadedAt, t.deliveryId)],
);
