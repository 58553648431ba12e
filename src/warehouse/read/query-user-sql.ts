/**
 * A person's SQL (`campaign-warehouse query`) on the published warehouse: read-only in
 * every way, not only for the catalog file. The session reads files in the lake (and its
 * spill folder) only, and cannot change that (DuckDB's allowed_directories,
 * enable_external_access and lock_configuration): no COPY TO /tmp, no read_csv('/etc/...').
 * The lake itself stays writable by DuckDB's rules, so only reading statements run: COPY,
 * EXPORT, ATTACH, INSTALL and every other kind is refused before it runs. One statement per
 * call: the result printed is the one of the statement given. A statement that overlapped the
 * swaps of a publish replacing files is planned and run again (readConsistently).
 */
import { sep } from 'node:path';
import { type DuckDBConnection, StatementType } from '@duckdb/node-api';
import { UserError } from '../../util/user-error.js';
import { openDatabase } from '../duckdb/open-database.js';
import { sqlString } from '../duckdb/warehouse-paths.js';
import { lakePath } from '../lake/index.js';
import { type QueryResult, requirePublished, toPlain } from './query-read-only.js';
import { readConsistently } from './read-consistently.js';

export async function queryUserSql(dataDir: string, sql: string): Promise<QueryResult> {
  const path = requirePublished(dataDir);
  const db = await openDatabase(path, { access_mode: 'READ_ONLY' });
  try {
    const connection = db.connection;
    const lake = lakePath(dataDir);
    await confineFiles(connection, lake);
    // DuckDB fails without a word ("Error in native callback") on text with no statement.
    const statements = await connection.extractStatements(sql).catch((error: unknown) => {
      throw sql.replace(/\/\*[\s\S]*?\*\/|--[^\n]*/g, '').trim() === ''
        ? new UserError('query: no SQL statement given')
        : error;
    });
    if (statements.count === 0) throw new UserError('query: no SQL statement given');
    if (statements.count > 1)
      throw new UserError(`query runs one statement, got ${statements.count}: run them one at a time`);
    const reader = await readConsistently(lake, async () => {
      // DuckDB prepares an extracted statement only once: each run extracts it again.
      const statement = await connection.extractStatements(sql);
      const prepared = await statement.prepare(0).catch((error: unknown) => {
        throw explainRefusal(error, lake);
      });
      await refuseWrites(connection, prepared.statementType, sql);
      return prepared.runAndReadAll();
    });
    return {
      columns: reader.columnNames(),
      rows: reader.getRows().map((row) => row.map(toPlain)),
      // JSON is VARCHAR to DuckDB's client API, its name kept as the type's alias.
      types: reader.columnTypes().map((type) => type.alias ?? type.toString()),
    };
  } finally {
    db.close();
  }
}

/**
 * A write DuckDB refuses while binding, explained: the tables are views (DuckDB says "Can only
 * delete from base table", or for an INSERT "campaigns is not an table"), and files outside the lake are out of reach. DuckDB's message is
 * kept whole; anything else is returned as it is.
 */
function explainRefusal(error: unknown, lake: string): unknown {
  const message = error instanceof Error ? error.message.trimEnd() : '';
  if (/can only [a-z ]+ base table|\bis not an? table\b/i.test(message))
    return new UserError(`query is read-only (its tables are views over the Parquet lake): ${message}`, {
      cause: error,
    });
  if (/^Permission Error: Cannot access file/.test(message))
    return new UserError(
      `query failed: ${message}\n(query reads only the warehouse's files, in ${lake}, and writes none)`,
      { cause: error },
    );
  return error;
}

/** Files outside the lake and DuckDB's spill folder cannot be read or written; locked. */
async function confineFiles(connection: DuckDBConnection, lake: string): Promise<void> {
  const temp = (await connection.runAndReadAll("select current_setting('temp_directory')")).getRows()[0]?.[0];
  const allowed = [`${lake}${sep}`, ...(typeof temp === 'string' && temp ? [`${temp}${sep}`] : [])];
  await connection.run(`set allowed_directories = [${allowed.map(sqlString).join(', ')}]`);
  await connection.run('set enable_external_access = false');
  await connection.run('set lock_configuration = true');
}

/**
 * Only SELECT (DESCRIBE, SHOW, SUMMARIZE, PRAGMA and VALUES prepare as SELECT) and EXPLAIN of
 * a SELECT run: EXPLAIN ANALYZE executes what it explains.
 */
async function refuseWrites(connection: DuckDBConnection, type: StatementType, sql: string): Promise<void> {
  if (type === StatementType.SELECT) return;
  if (type === StatementType.EXPLAIN) {
    const explained = sql.replace(/^\s*explain(\s+analy[sz]e)?\b/i, '');
    const inner = explained === sql ? undefined : await connection.extractStatements(explained);
    if (inner?.count === 1 && (await inner.prepare(0)).statementType === StatementType.SELECT) return;
  }
  throw new UserError(
    `query is read-only: it runs SELECT statements (and DESCRIBE, SHOW, SUMMARIZE, PRAGMA, EXPLAIN), not ${StatementType[type] ?? 'this'} statements; a file is written by a DuckDB client of your own`,
  );
}
