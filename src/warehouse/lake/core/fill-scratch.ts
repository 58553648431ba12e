import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { Row } from '../../../contracts/rows.js';
import { TableAppender } from '../../duckdb/table-appender.js';
import { sqlIdentifier as id } from '../../duckdb/warehouse-paths.js';
import type { LakeTransaction } from '../lake-transaction.js';

/** Rows appended (and flushed) between two yields to the event loop. */
const APPEND_SLICE = 2_048;

/**
 * Replaces the rows of the lake session's scratch table `memory.main.<table>` (empty, typed by
 * the migrations) with `rows`, values bound through the appender, in slices with a yield
 * between (the appender's flush is a synchronous native call). Returns a select of them.
 */
export async function fillScratch(tx: LakeTransaction, table: string, rows: readonly Row[]): Promise<string> {
  const scratch = `memory.main.${id(table)}`;
  await tx.connection.run(`delete from ${scratch}`);
  const columns = tx.tables.get(table)?.columns.map((column) => column.name);
  const appender = await TableAppender.create(tx.connection, table, 'memory', columns);
  for (let from = 0; from < rows.length; from += APPEND_SLICE) {
    appender.append(rows.slice(from, from + APPEND_SLICE));
    appender.flush();
    await yieldToLoop();
  }
  appender.close();
  return `select * from ${scratch}`;
}
