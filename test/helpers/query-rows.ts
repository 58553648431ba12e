import type { DuckDBConnection } from '@duckdb/node-api';

/** All rows of a query. */
export async function queryRows(connection: DuckDBConnection, sql: string): Promise<unknown[][]> {
  return (await connection.runAndReadAll(sql)).getRows();
}
