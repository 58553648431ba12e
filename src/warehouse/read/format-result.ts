import type { Value } from '../../contracts/rows.js';
import { parseJsonExact, stringifyExact } from '../../util/parse-json-exact.js';
import { terminalText } from './display-width.js';
import type { QueryResult } from './query-read-only.js';
import { renderText } from './text-table.js';

export const QUERY_FORMATS = ['table', 'records', 'csv', 'json'] as const;
export type QueryFormat = (typeof QUERY_FORMATS)[number];

export interface FormatOptions {
  /** Bold column names (a terminal only: piped output stays plain text). */
  readonly color?: boolean;
  /** table and records: the columns the text fits in; undefined, every value whole. */
  readonly width?: number | undefined;
}

/** DuckDB's integer types: a value beyond 2^53 comes as its decimal text (toPlain). */
const INTEGER_TYPE = /^U?(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT)$|^BIGNUM$/;
const NUMERIC_TYPE = /^(U?(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT)|BIGNUM|FLOAT|DOUBLE|DECIMAL\(.*\))$/;

/**
 * Renders a query result: a table fitted to `width` (or records, when its columns cannot all
 * be read within it: text-table.ts), records, RFC 4180 CSV, or a JSON array of row objects in
 * which a JSON column's values are JSON and an integer beyond 2^53 is written digit for digit.
 */
export function formatResult(result: QueryResult, format: QueryFormat, options: FormatOptions = {}): string {
  switch (format) {
    case 'json':
      return `${stringifyExact(jsonRows(result), 'query result', 2)}\n`;
    case 'csv':
      return [result.columns, ...result.rows]
        .map((row) => row.map(csvField).join(','))
        .join('\r\n')
        .concat('\r\n');
    case 'table':
    case 'records': {
      const types = result.types ?? [];
      const rendered = renderText(
        {
          columns: result.columns.map((name) => terminalText(name)),
          rows: result.rows.map((row) =>
            row.map((value) => terminalText(value === null ? 'NULL' : String(value), true)),
          ),
          numeric: result.columns.map(
            (_, i) =>
              NUMERIC_TYPE.test(types[i] ?? '') ||
              (result.rows.some((row) => typeof row[i] === 'number') &&
                result.rows.every((row) => row[i] === null || typeof row[i] === 'number')),
          ),
        },
        {
          width: options.width,
          layout: format === 'records' ? 'records' : 'auto',
          ...(options.color ? { bold: true } : {}),
        },
      );
      const count = result.rows.length;
      const rows = `${count} row${count === 1 ? '' : 's'}`;
      const cut = rendered.cut ? `; cut to ${options.width} columns, --width 0 for whole values` : '';
      return `${rendered.text}(${rows}${cut})\n`;
    }
  }
}

/**
 * The rows as objects for JSON: a JSON column's text parsed (its integers exact), an integer
 * column's value beyond 2^53 as a bigint (stringifyExact writes its digits).
 */
function jsonRows(result: QueryResult): Record<string, unknown>[] {
  const convert = result.columns.map((_, i): ((value: Value) => unknown) => {
    const type = result.types?.[i] ?? '';
    if (type === 'JSON') return asJson;
    if (INTEGER_TYPE.test(type))
      return (value) => (typeof value === 'string' && /^-?\d+$/.test(value) ? BigInt(value) : value);
    return (value) => value;
  });
  return result.rows.map((row) =>
    Object.fromEntries(result.columns.map((column, i) => [column, convert[i]!(row[i] ?? null)])),
  );
}

/** A JSON value's text as the value; text that is not JSON stays the text. */
function asJson(value: Value): unknown {
  if (typeof value !== 'string') return value;
  try {
    return parseJsonExact(value, 'a JSON value');
  } catch {
    return value;
  }
}

function csvField(value: Value | string): string {
  if (value === null) return '';
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}
