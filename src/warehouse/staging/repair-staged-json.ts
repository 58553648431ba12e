import type { DuckDBConnection } from '@duckdb/node-api';
import { noteRepairedText } from '../duckdb/text-repairs.js';
import { sqlIdentifier as id } from '../duckdb/warehouse-paths.js';
import { wellFormedJson } from '../duckdb/well-formed-text.js';

/**
 * Repairs the JSON text a staging file already holds when a run resumes in it: a file an
 * earlier release staged may hold the escape of a lone surrogate (`\ud800`), which its
 * appender let through and which would reach the lake and make the table unreadable
 * (well-formed-text.ts). One scan of the JSON columns, on resume only; the rows to repair
 * (none, but for such a file) are updated one by one.
 */
export async function repairStagedJson(connection: DuckDBConnection): Promise<void> {
  const reader = await connection.runAndReadAll(
    `select table_name, column_name from duckdb_columns()
      where database_name = current_database() and schema_name = 'main' and data_type = 'JSON'`,
  );
  for (const [table, column] of reader.getRows()) {
    const t = id(String(table));
    const c = id(String(column));
    const broken = await connection.runAndReadAll(
      `select rowid, ${c}::varchar from ${t} where regexp_matches(${c}::varchar, '\\\\u[dD][89a-fA-F]')`,
    );
    for (const [rowid, text] of broken.getRows()) {
      const repaired = wellFormedJson(String(text));
      if (repaired === text) continue;
      await connection.run(`update ${t} set ${c} = $1 where rowid = $2`, [repaired, Number(rowid)]);
      noteRepairedText(String(table), String(column));
    }
  }
}
