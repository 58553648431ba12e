import type { DuckDBDataChunk } from '@duckdb/node-api';
import bindings, { type Vector } from '@duckdb/node-bindings';
import type { ColumnKind, RawValue } from './to-duckdb-value.js';

/** Bytes per value in a DuckDB vector, by column kind (VARCHAR: a 16-byte string_t). */
const WIDTH: Record<ColumnKind, number> = {
  varchar: 16,
  bigint: 8,
  integer: 4,
  double: 8,
  date: 4,
  timestamp: 8,
  boolean: 1,
};

/** The longest string DuckDB stores inline in its string_t (no heap copy). */
const INLINE_STRING_BYTES = 12;
const TWO_POW_32 = 4_294_967_296;

/**
 * Writes one column of converted values into a data chunk's vector, in the layouts of
 * DuckDB's C API (duckdb.h: little-endian integers, doubles, int32 days, int64
 * microseconds, 16-byte duckdb_string_t). This is the appender's hot path: the generic
 * vector classes of @duckdb/node-api allocate a wrapper or make a native call per value;
 * here the column is built in one JS buffer and copied with one native call. Short ASCII
 * strings (ids, networks, stat names, segments) are inlined in that buffer; longer ones
 * then go through duckdb_vector_assign_string_element, which copies them into the
 * vector's own string heap.
 */
// Kept over @duckdb/node-api's own chunk writing, measurably slower: bench/RESULTS.md (issue 39); `npm run bench -- load --writers` re-measures.
export function writeChunkColumn(
  chunk: DuckDBDataChunk,
  columnIndex: number,
  kind: ColumnKind,
  values: readonly RawValue[],
  count: number,
): void {
  const vector = bindings.data_chunk_get_vector(chunk.chunk, columnIndex);
  const buffer = new ArrayBuffer(count * WIDTH[kind]);
  const nulls = new NullMask(count);
  const longStrings: number[] = [];
  FILL[kind](buffer, values, count, nulls, longStrings);
  bindings.copy_data_to_vector(vector, 0, buffer, 0, buffer.byteLength);
  for (const row of longStrings) {
    bindings.vector_assign_string_element(vector, row, values[row] as string);
  }
  nulls.copyTo(vector);
}

/** The validity bitmap of a column (DuckDB's: one bit per row, 1 = valid), made at the first NULL. */
class NullMask {
  #validity: Uint8Array | undefined;
  readonly #count: number;

  constructor(count: number) {
    this.#count = count;
  }

  set(row: number): void {
    this.#validity ??= new Uint8Array(Math.ceil(this.#count / 64) * 8).fill(0xff);
    this.#validity[row >> 3]! &= ~(1 << (row & 7));
  }

  copyTo(vector: Vector): void {
    const validity = this.#validity;
    if (!validity) return;
    bindings.vector_ensure_validity_writable(vector);
    bindings.copy_data_to_vector_validity(vector, 0, validity.buffer as ArrayBuffer, 0, validity.byteLength);
  }
}

/** Fills a column's buffer with its values: NULLs into `nulls`, the rows of strings not inlined into `longStrings`. */
type Fill = (
  buffer: ArrayBuffer,
  values: readonly RawValue[],
  count: number,
  nulls: NullMask,
  longStrings: number[],
) => void;

const fillInts: Fill = (buffer, values, count, nulls) => {
  const ints = new Int32Array(buffer, 0, count);
  for (let row = 0; row < count; row += 1) {
    const value = values[row] as number | null;
    if (value === null) nulls.set(row);
    else ints[row] = value;
  }
};

const fillBigints: Fill = (buffer, values, count, nulls) => {
  const halves = new Int32Array(buffer, 0, count * 2);
  let big: BigInt64Array | undefined;
  for (let row = 0; row < count; row += 1) {
    const value = values[row] as number | bigint | null;
    if (value === null) {
      nulls.set(row);
    } else if (typeof value === 'bigint') {
      big ??= new BigInt64Array(buffer, 0, count);
      big[row] = value;
    } else {
      // A safe integer as two little-endian 32-bit halves: no BigInt allocated.
      const high = Math.floor(value / TWO_POW_32);
      halves[row * 2] = value - high * TWO_POW_32;
      halves[row * 2 + 1] = high;
    }
  }
};

const FILL: Record<ColumnKind, Fill> = {
  varchar: (buffer, values, count, nulls, longStrings) => {
    const data = new Uint8Array(buffer);
    for (let row = 0; row < count; row += 1) {
      const value = values[row] as string | null;
      if (value === null) nulls.set(row);
      else if (!writeInlineAscii(data, row * 16, value)) longStrings.push(row);
    }
  },
  double: (buffer, values, count, nulls) => {
    const doubles = new Float64Array(buffer, 0, count);
    for (let row = 0; row < count; row += 1) {
      const value = values[row] as number | null;
      if (value === null) nulls.set(row);
      else doubles[row] = value;
    }
  },
  integer: fillInts,
  date: fillInts,
  bigint: fillBigints,
  timestamp: fillBigints,
  boolean: (buffer, values, count, nulls) => {
    const data = new Uint8Array(buffer);
    for (let row = 0; row < count; row += 1) {
      const value = values[row] as boolean | null;
      if (value === null) nulls.set(row);
      else data[row] = value ? 1 : 0;
    }
  },
};

/** Writes a short ASCII string inline (length, then up to 12 bytes, zero-padded); false if it is not one. */
function writeInlineAscii(data: Uint8Array, at: number, value: string): boolean {
  const length = value.length;
  if (length > INLINE_STRING_BYTES) return false;
  for (let i = 0; i < length; i += 1) {
    const code = value.charCodeAt(i);
    if (code > 127) return false;
    data[at + 4 + i] = code;
  }
  data[at] = length;
  return true; // the rest of the 16 bytes stays zero (a fresh buffer)
}
