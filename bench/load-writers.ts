import { loadavg } from 'node:os';
import { type DuckDBConnection, DuckDBDataChunk, type DuckDBType } from '@duckdb/node-api';
import type { Row, TableRows } from '../src/contracts/rows.js';
import { applyMigrations } from '../src/warehouse/duckdb/apply-migrations.js';
import { openDatabase } from '../src/warehouse/duckdb/open-database.js';
import { CHUNK_ROWS, tableColumns } from '../src/warehouse/duckdb/table-appender.js';
import {
  type ColumnKind,
  columnKind,
  converterFor,
  type RawValue,
} from '../src/warehouse/duckdb/to-duckdb-value.js';
import { wellFormedConverter } from '../src/warehouse/duckdb/well-formed-text.js';
import { writeChunkColumn } from '../src/warehouse/duckdb/write-chunk-column.js';
import { writeChunkColumnsWithLibrary } from './library-chunk-writer.js';

/** One table's rows, converted as TableAppender converts them, in chunks of CHUNK_ROWS. */
interface TableChunks {
  readonly table: string;
  readonly types: readonly DuckDBType[];
  readonly kinds: readonly ColumnKind[];
  readonly chunks: { readonly count: number; readonly columns: RawValue[][] }[];
}

type Writer = 'ours' | 'library';

/** Fills `chunk` with one chunk's columns through `writer`. */
function fill(
  writer: Writer,
  chunk: DuckDBDataChunk,
  table: TableChunks,
  columns: RawValue[][],
  count: number,
): void {
  chunk.reset();
  chunk.rowCount = count;
  if (writer === 'library') writeChunkColumnsWithLibrary(chunk, columns, count);
  else
    for (let c = 0; c < table.kinds.length; c += 1)
      writeChunkColumn(chunk, c, table.kinds[c]!, columns[c]!, count);
}

/** The pages' rows per table, converted for their columns as TableAppender converts them. */
async function convertedChunks(
  connection: DuckDBConnection,
  pages: Iterable<TableRows>,
): Promise<TableChunks[]> {
  const byTable = new Map<string, Row[]>();
  for (const page of pages)
    for (const [table, rows] of Object.entries(page)) {
      const all = byTable.get(table) ?? [];
      for (const row of rows ?? []) all.push(row);
      byTable.set(table, all);
    }
  const names = await tableColumns(connection);
  const tables: TableChunks[] = [];
  for (const [table, rows] of byTable) {
    const columns = names.get(table) ?? [];
    const appender = await connection.createAppender(table);
    const types = columns.map((_, c) => appender.columnType(c));
    appender.closeSync();
    const kinds = types.map((type) => columnKind(type));
    const converters = kinds.map((kind, c) =>
      kind === 'varchar'
        ? wellFormedConverter(table, columns[c]!, types[c]!.alias === 'JSON')
        : converterFor(kind),
    );
    const chunks = [];
    for (let at = 0; at < rows.length; at += CHUNK_ROWS) {
      const part = rows.slice(at, at + CHUNK_ROWS);
      chunks.push({
        count: part.length,
        columns: columns.map((name, c) =>
          part.map((row) => (row[name] == null ? null : converters[c]!(row[name]!))),
        ),
      });
    }
    tables.push({ table, types, kinds, chunks });
  }
  return tables;
}

/** Fills every chunk of every table (no append): the writers' own work. */
function fillAll(writer: Writer, tables: readonly TableChunks[], chunks: readonly DuckDBDataChunk[]): number {
  const started = performance.now();
  tables.forEach((table, t) => {
    for (const { count, columns } of table.chunks) fill(writer, chunks[t]!, table, columns, count);
  });
  return performance.now() - started;
}

/** Fills and appends every chunk into a fresh in-memory warehouse, as TableAppender does (its flushes aside). */
async function fillAndAppendAll(writer: Writer, tables: readonly TableChunks[]): Promise<number> {
  const db = await openDatabase(':memory:');
  try {
    await applyMigrations(db.connection);
    const started = performance.now();
    for (const table of tables) {
      const appender = await db.connection.createAppender(table.table);
      const chunk = DuckDBDataChunk.create(table.types);
      for (const { count, columns } of table.chunks) {
        fill(writer, chunk, table, columns, count);
        appender.appendDataChunk(chunk);
      }
      appender.closeSync();
    }
    return performance.now() - started;
  } finally {
    db.close();
  }
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/**
 * `npm run bench -- load --writers`: TableAppender's chunk writer (write-chunk-column.ts) against
 * @duckdb/node-api's own (library-chunk-writer.ts) on the same converted rows, alternated in one
 * process (ours first in odd rounds, the library's first in even ones) so that the machine's load
 * weighs on both alike. Figures: milliseconds, medians over the rounds; the ratios are library / ours.
 */
export async function compareChunkWriters(
  pages: Iterable<TableRows>,
  rounds: number,
): Promise<Record<string, number>> {
  const db = await openDatabase(':memory:');
  try {
    await applyMigrations(db.connection);
    const tables = await convertedChunks(db.connection, pages);
    const chunks = tables.map((table) => DuckDBDataChunk.create(table.types));
    const times: Record<Writer, { fill: number[]; append: number[] }> = {
      ours: { fill: [], append: [] },
      library: { fill: [], append: [] },
    };
    const loads: number[] = [];
    for (let round = 0; round < rounds; round += 1) {
      for (const writer of round % 2 ? (['library', 'ours'] as const) : (['ours', 'library'] as const)) {
        times[writer].fill.push(fillAll(writer, tables, chunks));
        times[writer].append.push(await fillAndAppendAll(writer, tables));
      }
      loads.push(loadavg()[0]!);
    }
    const rows = tables.reduce(
      (sum, table) => sum + table.chunks.reduce((n, chunk) => n + chunk.count, 0),
      0,
    );
    const figure = (values: number[]) => Math.round(median(values));
    return {
      rows,
      rounds,
      fill_ours_ms: figure(times.ours.fill),
      fill_library_ms: figure(times.library.fill),
      fill_library_vs_ours: Math.round((median(times.library.fill) / median(times.ours.fill)) * 1000) / 1000,
      fill_append_ours_ms: figure(times.ours.append),
      fill_append_library_ms: figure(times.library.append),
      fill_append_library_vs_ours:
        Math.round((median(times.library.append) / median(times.ours.append)) * 1000) / 1000,
      load_average_min: Math.min(...loads),
      load_average_max: Math.max(...loads),
    };
  } finally {
    db.close();
  }
}
