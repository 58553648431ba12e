import { type DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { publishedPath } from '../../src/warehouse/duckdb/warehouse-paths.js';

/** A connection to a data directory's catalog opened read-only, as a BI tool holds one. */
export interface ReadOnlyCatalog {
  readonly connection: DuckDBConnection;
  close(): void;
}

export async function readOnlyCatalog(dataDir: string): Promise<ReadOnlyCatalog> {
  const instance = await DuckDBInstance.create(publishedPath(dataDir), { access_mode: 'READ_ONLY' });
  const connection = await instance.connect();
  return {
    connection,
    close: () => {
      connection.closeSync();
      instance.closeSync();
    },
  };
}
