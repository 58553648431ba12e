import {
  type DuckDBDataChunk,
  DuckDBDateValue,
  DuckDBTimestampValue,
  DuckDBTypeId,
  type JS,
  JSToDuckDBValueConverter,
  type ToDuckDBValueConverter,
} from '@duckdb/node-api';
import type { RawValue } from '../src/warehouse/duckdb/to-duckdb-value.js';

/**
 * A converted value (to-duckdb-value.ts) as the DuckDBValue of its column: the library's
 * JSToDuckDBValueConverter, but for DATE (days) and TIMESTAMP (microseconds), which it takes
 * only as a Date (whole milliseconds).
 */
const fromRawValue: ToDuckDBValueConverter<RawValue> = (value, type) => {
  if (value === null) return null;
  if (type.typeId === DuckDBTypeId.DATE) return new DuckDBDateValue(value as number);
  if (type.typeId === DuckDBTypeId.TIMESTAMP)
    return new DuckDBTimestampValue(BigInt(value as number | bigint));
  return JSToDuckDBValueConverter(value as JS, type, JSToDuckDBValueConverter);
};

/**
 * Writes the first `count` converted values of each column into `chunk` through
 * @duckdb/node-api's own vectors (DuckDBDataChunk.setColumnsConverted: one setItem per value,
 * then one flush per vector).
 */
export function writeChunkColumnsWithLibrary(
  chunk: DuckDBDataChunk,
  columns: readonly (readonly RawValue[])[],
  count: number,
): void {
  chunk.setColumnsConverted(
    columns.map((values) => (values.length === count ? values : values.slice(0, count))),
    fromRawValue,
  );
}
