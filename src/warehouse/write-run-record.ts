import { fillScratch } from './fill-scratch.js';
import type { LakeTransaction } from './lake/lake-transaction.js';
import { rewriteWhole } from './lake/rewrite-whole.js';
import type { SyncRunRecord } from './types.js';

/** Inserts or replaces (by run_id) one sync_runs row; values bound through the appender. */
export async function writeRunRecord(tx: LakeTransaction, run: SyncRunRecord): Promise<void> {
  await rewriteWhole(tx, 'sync_runs', ['run_id'], await fillScratch(tx, 'sync_runs', [{ ...run }]));
}
