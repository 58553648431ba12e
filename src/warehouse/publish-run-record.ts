import { publishWarehouse } from './publish-warehouse.js';
import type { PublishResult, SyncRunRecord } from './types.js';
import { writeRunRecord } from './write-run-record.js';

/** Publishes only a sync_runs row (e.g. a failed run, so analysts see it); nothing else changes. */
export async function publishRunRecord(dataDir: string, run: SyncRunRecord): Promise<PublishResult> {
  const started = performance.now();
  await publishWarehouse(dataDir, (tx) => writeRunRecord(tx, run));
  return { rowsByTable: { sync_runs: 1 }, rowsWritten: 1, durationMs: performance.now() - started };
}
