import type { Row } from '../normalize/rows.js';
import type { StreamBatch } from '../warehouse/index.js';
import { type BatchLookups, buildStreamBatch, type StoredDelivery } from './build-stream-batch.js';
import { WholeBatchError } from './whole-publish-failure.js';

/**
 * The rows of `deliveries` as one stream batch, as buildStreamBatch makes them; should that
 * throw (a body the pre-acknowledgement checks of this release would refuse, left in the inbox
 * by an older one or a crash: one nested so deep that JSON.stringify overflows its stack), each
 * delivery is built alone, and those whose rows cannot be built are passed to `setAside` and
 * left out: the others publish. A WholeBatchError (a lookup every delivery shares) is no one
 * delivery's fault and is thrown.
 */
export function buildApart(
  deliveries: readonly StoredDelivery[],
  lookups: BatchLookups,
  hooks: Row[],
  setAside: (delivery: StoredDelivery, error: unknown) => void,
): StreamBatch {
  try {
    return buildStreamBatch(deliveries, lookups, hooks);
  } catch (error) {
    if (error instanceof WholeBatchError) throw error;
  }
  const batch: StreamBatch = { documents: [], deliveries: [], hooks };
  for (const delivery of deliveries) {
    let part: StreamBatch;
    try {
      part = buildStreamBatch([delivery], lookups, hooks);
    } catch (error) {
      if (error instanceof WholeBatchError) throw error;
      setAside(delivery, error);
      continue;
    }
    // Loops, not push(...rows): a delivery may carry more documents than a call takes arguments.
    for (const row of part.documents) batch.documents.push(row);
    for (const row of part.deliveries) batch.deliveries.push(row);
  }
  return batch;
}
