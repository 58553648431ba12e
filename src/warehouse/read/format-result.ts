import Table from 'cli-table3';
import type { Value } from '../../contracts/rows.js';
import type { QueryResult } from './query-read-only.js';

export const QUERY_FORMATS = ['table', 'csv', 'json'] as const;
export type QueryFormat = (typeof QUERY_FORMATS)[number];

/** Renders a query result: a boxed table, RFC 4180 CSV, or a JSON array of row objects. */
export function formatResult(
  result: QueryResult,
  format: QueryFormat,
  options: { color?: boolean } = {},
): string {
  switch (format) {
    case 'json':
      return `${JSON.stringify(
        result.rows.map((row) => Object.fromEntries(result.columns.map((c, i) => [c, row[i] ?? null]))),
        null,
        2,
      )}\n`;
    case 'csv':
      return [result.columns, ...result.rows]
        .map((row) => row.map(csvField).join(','))
        .join('\r\n')
        .concat('\r\n');
    case 'table': {
      // Colors only for a terminal: piped output stays plain text.
      const style = options.color ? {} : { head: [], border: [] };
      const table = new Table({ head: result.columns, style });
      for (const row of result.rows)
        table.push(row.map((value) => (value === null ? 'NULL' : String(value))));
      const count = result.rows.length;
      return `${table.toString()}\n(${count} row${count === 1 ? '' : 's'})\n`;
    }
  }
}

function csvField(value: Value | string): string {
  if (value === null) return '';
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}
