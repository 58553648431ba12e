import { existsSync } from 'node:fs';
import {
  DuckDBDateValue,
  DuckDBDecimalValue,
  DuckDBTimestampMillisecondsValue,
  DuckDBTimestampNanosecondsValue,
  DuckDBTimestampSecondsValue,
  DuckDBTimestampTZValue,
  DuckDBTimestampValue,
  type DuckDBValue,
} from '@duckdb/node-api';
import type { Value } from '../../contracts/rows.js';
import { UserError } from '../../util/user-error.js';
import { openDatabase } from '../duckdb/open-database.js';
import { publishedPath } from '../duckdb/warehouse-paths.js';
import { lakePath } from '../lake/index.js';
import { readConsistently } from './read-consistently.js';

/** A query result as plain JS: bigints as numbers when safe, dates and times as ISO text. */
export interface QueryResult {
  readonly columns: string[];
  readonly rows: Value[][];
  /** Each column's DuckDB type (`BIGINT`, `JSON`, `VARCHAR[]`), when the reader gave them. */
  readonly types?: readonly string[];
}

/** Runs one query in a read-only session (see withReadOnly). */
export type ReadQuery = (sql: string, params?: Value[] | Record<string, Value>) => Promise<QueryResult>;

/**
 * Runs one query on the published catalog opened READ_ONLY: it never blocks a publish (the
 * views read the lake, whose partitions publishes swap by rename) and sees each table complete.
 */
export async function queryReadOnly(
  dataDir: string,
  sql: string,
  params?: Value[] | Record<string, Value>,
): Promise<QueryResult> {
  return withReadOnly(dataDir, (query) => query(sql, params));
}

/**
 * Opens the published catalog READ_ONLY once for `work`. Each query sees every table whole, as
 * of that query: a publish landing between two queries shows in the second. A query that
 * overlapped the swaps of a publish replacing files is run again (readConsistently).
 */
export async function withReadOnly<T>(dataDir: string, work: (query: ReadQuery) => Promise<T>): Promise<T> {
  const path = requirePublished(dataDir);
  const lake = lakePath(dataDir);
  const db = await openDatabase(path, { access_mode: 'READ_ONLY' });
  try {
    return await work(async (sql, params) => {
      try {
        const reader = await readConsistently(lake, () => db.connection.runAndReadAll(sql, params));
        return { columns: reader.columnNames(), rows: reader.getRows().map((row) => row.map(toPlain)) };
      } catch (error) {
        // The tables are views over the lake: DuckDB refuses a write with "Can only delete from
        // base table" before it would say the file is read-only.
        if (error instanceof Error && /can only [a-z ]+ base table/i.test(error.message))
          throw new Error(
            `the warehouse is read-only (its tables are views over the Parquet lake): ${error.message}`,
            { cause: error },
          );
        throw error;
      }
    });
  } finally {
    db.close();
  }
}

/** The published file's path; a UserError saying to sync first when there is none yet. */
export function requirePublished(dataDir: string): string {
  const path = publishedPath(dataDir);
  if (!existsSync(path))
    throw new UserError(`no warehouse yet at ${path}: run \`campaign-warehouse sync\` first`);
  return path;
}

/** Converts a DuckDB value to plain JS (exported for tests and other readers). */
export function toPlain(value: DuckDBValue): Value {
  if (value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
    return value;
  if (typeof value === 'bigint')
    return Number.isSafeInteger(Number(value)) ? Number(value) : value.toString();
  if (value instanceof DuckDBDateValue) return value.toString();
  if (value instanceof DuckDBTimestampValue || value instanceof DuckDBTimestampTZValue)
    return microsToIso(value.micros);
  if (value instanceof DuckDBTimestampMillisecondsValue) return microsToIso(value.millis * 1000n);
  if (value instanceof DuckDBTimestampSecondsValue) return microsToIso(value.seconds * 1_000_000n);
  if (value instanceof DuckDBTimestampNanosecondsValue) return microsToIso(value.nanos / 1000n);
  if (value instanceof DuckDBDecimalValue) return value.toDouble();
  return value.toString();
}

function microsToIso(micros: bigint): string {
  const ms = micros / 1000n;
  const iso = new Date(Number(ms)).toISOString();
  const extra = Number(((micros % 1000n) + 1000n) % 1000n);
  return extra === 0 ? iso : `${iso.slice(0, -1)}${String(extra).padStart(3, '0')}Z`;
}
