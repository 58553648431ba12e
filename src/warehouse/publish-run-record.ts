import { publishWarehouse, writeRunRecord } from './lake/index.js';
import { publishResult } from './publish-result.js';
import type { PublishResult, SyncRunRecord } from './types.js';

/** Publishes only a sync_runs row (e.g. a failed run, so analysts see it); nothing else changes. */
export async function publishRunRecord(dataDir: string, run: SyncRunRecord): Promise<PublishResult> {
  const started = performance.now();
  await publishWarehouse(dataDir, (tx) => writeRunRecord(tx, run));
  return publishResult({ sync_runs: 1 }, started);
}
