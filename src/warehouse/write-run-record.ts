import type { LakeTransaction } from './lake/lake-transaction.js';
import { rewriteWhole } from './lake/rewrite-whole.js';
import { TableAppender } from './table-appender.js';
import type { SyncRunRecord } from './types.js';

/** Inserts or replaces (by run_id) one sync_runs row; values bound through the appender. */
export async function writeRunRecord(tx: LakeTransaction, run: SyncRunRecord): Promise<void> {
  await tx.connection.run('delete from memory.main.sync_runs');
  const appender = await TableAppender.create(tx.connection, 'sync_runs', 'memory');
  appender.append([{ ...run }]);
  appender.close();
  await rewriteWhole(tx, 'sync_runs', ['run_id'], 'select * from memory.main.sync_runs');
}
