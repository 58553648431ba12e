import type { DuckDBConnection } from '@duckdb/node-api';
import { sqlIdentifier as id, sqlString } from '../duckdb/warehouse-paths.js';

/** The name under which a publish attaches a closed staging file. */
const STAGING = 'staging';

/** A staged table as publishing reads it: its key, and whether staging already keeps it unique. */
export interface StagedTable {
  readonly name: string;
  readonly keys: readonly string[];
  readonly stagedUnique: boolean;
}

/** Attaches a closed staging file (read-only) to a publish's session; returns the tables it holds. */
export async function attachStaging(connection: DuckDBConnection, path: string): Promise<Set<string>> {
  await connection.run(`attach ${sqlString(path)} as ${STAGING} (read_only)`);
  const reader = await connection.runAndReadAll(
    `select table_name from duckdb_tables() where database_name = '${STAGING}' and schema_name = 'main'`,
  );
  return new Set(reader.getRows().map((row) => String(row[0])));
}

/**
 * The staged rows of a table, one per key: the first in `order`. Tables the extractor
 * never stages twice for a key (stagedUnique in table-registry.ts) are taken as they are: a
 * window over millions of post rows is what would not fit the publish memory limit. Every
 * other table is deduplicated here (its rows repeat across units: an influencer in several
 * campaigns).
 */
export function stagedRows(table: StagedTable, order: string, where = 'true'): string {
  const select = `select * from ${STAGING}.main.${id(table.name)} where ${where}`;
  if (table.stagedUnique || table.keys.length === 0) return select;
  return `${select} qualify row_number() over (partition by ${table.keys.map(id).join(', ')} order by ${order}) = 1`;
}
