import type { StreamBatch } from '../../src/warehouse/types.js';
import { streamDocument } from './warehouse-stream-rows.js';

let delivery = 1000;

/** A batch of `count` new documents `<prefix>-<i>` received at `receivedAt`, with its delivery. */
export function documentsBatch(prefix: string, count: number, receivedAt: string): StreamBatch {
  delivery += 1;
  return {
    documents: Array.from({ length: count }, (_, i) =>
      streamDocument('h1', `${prefix}-${i}`, '2026-11-20T08:00:00Z', receivedAt),
    ),
    deliveries: [
      { delivery_id: delivery, hook_id: 'h1', received_at: receivedAt, documents: count, bytes: 100 * count },
    ],
    hooks: [],
  };
}
