import type { SyncRunRecord } from '../../../contracts/sync-run-record.js';
import { fillScratch } from '../core/fill-scratch.js';
import type { LakeTransaction } from '../lake-transaction.js';
import { rewriteWhole } from './rewrite-whole.js';

/** Inserts or replaces (by run_id) one sync_runs row; values bound through the appender. */
export async function writeRunRecord(tx: LakeTransaction, run: SyncRunRecord): Promise<void> {
  await rewriteWhole(tx, 'sync_runs', await fillScratch(tx, 'sync_runs', [{ ...run }]));
}
