import type { DuckDBConnection } from '@duckdb/node-api';
import { TableAppender } from './table-appender.js';
import type { SyncRunRecord } from './types.js';

/** Inserts or replaces (by run_id) one sync_runs row; values bound through the appender. */
export async function writeRunRecord(connection: DuckDBConnection, run: SyncRunRecord): Promise<void> {
  await connection.run('delete from sync_runs where run_id = $1', [run.run_id]);
  const appender = await TableAppender.create(connection, 'sync_runs');
  appender.append([{ ...run }]);
  appender.close();
}
