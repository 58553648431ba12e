import {
  type DuckDBAppender,
  type DuckDBConnection,
  DuckDBDataChunk,
  type DuckDBType,
} from '@duckdb/node-api';
import type { Row } from '../../contracts/rows.js';
import {
  type ColumnKind,
  columnKind,
  converterFor,
  type RawValue,
  type ValueConverter,
} from './to-duckdb-value.js';
import { wellFormedConverter } from './well-formed-text.js';
import { writeChunkColumn } from './write-chunk-column.js';

/** DuckDB's vector size: a data chunk holds at most this many rows. */
export const CHUNK_ROWS = 2048;

/**
 * Rows after which the appender's own buffer is flushed into the table. The appender
 * keeps appended chunks in memory until a flush; this bounds that to a few MB per table
 * while keeping flushes rare enough not to cost throughput.
 */
export const APPENDER_FLUSH_ROWS = 100_000;

/**
 * The column names of every table of `catalog` (the current database by default), in order:
 * one lookup for all of them (duckdb_columns() costs the same however few rows it returns),
 * grouped here: DuckDB's hash aggregate of the same rows took several times the lookup
 * (figures: bench/RESULTS.md, "Figures moved out of code comments").
 */
export async function tableColumns(
  connection: DuckDBConnection,
  catalog?: string,
): Promise<Map<string, readonly string[]>> {
  const reader = await connection.runAndReadAll(
    `select table_name, column_index, column_name from duckdb_columns()
      where database_name = coalesce($1, current_database()) and schema_name = 'main'`,
    [catalog ?? null],
  );
  const columns = new Map<string, string[]>();
  for (const [table, index, column] of reader.getRowsJS()) {
    const list = columns.get(String(table)) ?? [];
    list[Number(index) - 1] = String(column);
    columns.set(String(table), list);
  }
  return columns;
}

/**
 * Bulk-loads rows into one table through a DuckDB Appender, one DataChunk of CHUNK_ROWS at
 * a time (column-major, values converted to the column's type and written straight into
 * the chunk's vectors by writeChunkColumn; never row-by-row INSERT).
 * The column list is the table's own, introspected from the appender: a row missing a
 * column gives NULL, a row's unknown column is ignored. Every string is made valid UTF-8, and
 * every JSON text readable JSON, on its way in (well-formed-text.ts): this is the one door of
 * rows into DuckDB (staging, and the lake's scratch tables of the sink and the run records).
 */
export class TableAppender {
  private readonly columns: RawValue[][];
  private buffered = 0;
  private sinceFlush = 0;
  private chunk: DuckDBDataChunk | undefined;

  private constructor(
    readonly table: string,
    private readonly appender: DuckDBAppender,
    private readonly names: readonly string[],
    private readonly types: readonly DuckDBType[],
    private readonly kinds: readonly ColumnKind[],
    private readonly converters: readonly ValueConverter[],
  ) {
    this.columns = names.map(() => new Array<RawValue>(CHUNK_ROWS));
  }

  /** `columns`: the table's column names when the caller already has them (tableColumns), else looked up. */
  static async create(
    connection: DuckDBConnection,
    table: string,
    catalog?: string,
    columns?: readonly string[],
  ): Promise<TableAppender> {
    const names = columns ?? (await tableColumns(connection, catalog)).get(table) ?? [];
    if (names.length === 0) throw new Error(`warehouse: no table ${table}`);
    const appender = await connection.createAppender(table, 'main', catalog ?? null);
    const types = names.map((_, index) => appender.columnType(index));
    const kinds = types.map((type) => columnKind(type));
    // Text columns (JSON is a VARCHAR alias) get well-formed text, a repair counted (well-formed-text.ts).
    const converters = kinds.map((kind, c) =>
      kind === 'varchar'
        ? wellFormedConverter(table, names[c]!, types[c]!.alias === 'JSON')
        : converterFor(kind),
    );
    return new TableAppender(table, appender, names, types, kinds, converters);
  }

  append(rows: readonly Row[]): void {
    const { names, converters, columns } = this;
    for (const row of rows) {
      const at = this.buffered;
      for (let c = 0; c < names.length; c += 1) {
        const value = row[names[c]!];
        try {
          columns[c]![at] = value === undefined || value === null ? null : converters[c]!(value);
        } catch (error) {
          throw new TypeError(`warehouse: ${this.table}.${names[c]}: ${(error as Error).message}`);
        }
      }
      this.buffered = at + 1;
      if (this.buffered === CHUNK_ROWS) this.appendChunk();
    }
  }

  /**
   * Moves buffered rows into the table (visible to queries on this connection). With no row
   * appended since the last flush it does nothing: an appender's flush costs time even when
   * empty, and a sync flushes all its tables' appenders after each unit, most of them with
   * nothing new.
   */
  flush(): void {
    this.appendChunk();
    if (this.sinceFlush === 0) return;
    this.appender.flushSync();
    this.sinceFlush = 0;
  }

  close(): void {
    this.appendChunk();
    this.appender.closeSync();
  }

  private appendChunk(): void {
    const count = this.buffered;
    if (count === 0) return;
    // One chunk per table, reset and refilled: a chunk's native memory (vectors and their
    // string heaps) is freed only when V8 collects its wrapper, which it does not hurry
    // to do since it cannot see that memory, so a new chunk per 2,048 rows piles up native
    // memory the garbage collector never weighs.
    this.chunk ??= DuckDBDataChunk.create(this.types);
    const { chunk } = this;
    chunk.reset();
    chunk.rowCount = count;
    for (let c = 0; c < this.kinds.length; c += 1) {
      writeChunkColumn(chunk, c, this.kinds[c]!, this.columns[c]!, count);
    }
    this.appender.appendDataChunk(chunk);
    this.buffered = 0;
    this.sinceFlush += count;
    if (this.sinceFlush >= APPENDER_FLUSH_ROWS) {
      this.appender.flushSync();
      this.sinceFlush = 0;
    }
  }
}
