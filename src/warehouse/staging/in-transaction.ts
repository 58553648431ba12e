import type { DuckDBConnection } from '@duckdb/node-api';

/**
 * Runs `work` in one transaction of `connection`: committed when it returns (one commit,
 * so one WAL sync of a file database, whatever `work` wrote), rolled back when it throws.
 * Appender flushes made meanwhile join the transaction.
 */
export async function inTransaction<T>(connection: DuckDBConnection, work: () => Promise<T>): Promise<T> {
  await connection.run('begin transaction');
  let result: T;
  try {
    result = await work();
  } catch (error) {
    await connection.run('rollback').catch(() => {});
    throw error;
  }
  await connection.run('commit');
  return result;
}
