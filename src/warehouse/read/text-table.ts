/**
 * A query result as text for a person at a terminal: a table (one line per row, a rule under
 * the header only), its columns narrowed to fit a width with long cells cut with `…`; or, when
 * the columns cannot all keep a readable width, one record per row (a `column │ value` line
 * per column, as psql's `\x auto` and DuckDB's `.mode line`): `select *` of a wide table on
 * an 80-column terminal would otherwise cut every value to a few characters.
 */
import { displayWidth, fitWidth, padWidth } from './display-width.js';

/** A column narrower than this (or than its widest cell, when that is less) is no longer read. */
export const MIN_COLUMN_WIDTH = 12;
/** The longest a column name takes in a record's left column, as a share of the width. */
const MAX_LABEL_SHARE = 0.4;
const SEPARATOR = ' │ ';
/** Between the cells of a row's second and later lines: the row goes on (psql marks it with +). */
const GOES_ON = ' ┊ ';

export interface TextTable {
  readonly columns: readonly string[];
  /**
   * Each cell's text, control characters escaped but its line breaks kept (display-width.ts's
   * terminalText): a cell of several lines (a query plan) takes as many, the others left blank.
   */
  readonly rows: readonly (readonly string[])[];
  /** Per column: numbers, aligned right and never cut (a cut figure reads as another one). */
  readonly numeric: readonly boolean[];
}

export interface Rendered {
  /** The lines, each ending in a newline. */
  readonly text: string;
  /** Whether a cell or a column name was cut to fit. */
  readonly cut: boolean;
  readonly layout: 'table' | 'records';
}

/**
 * The table within `width` columns (undefined: no limit, every cell whole); records instead
 * when `layout` is 'records', or 'auto' and the columns do not fit at MIN_COLUMN_WIDTH.
 * `bold` styles the column names (a terminal).
 */
export function renderText(
  table: TextTable,
  options: { width?: number | undefined; layout?: 'auto' | 'records'; bold?: boolean } = {},
): Rendered {
  const widths = options.layout === 'records' ? undefined : columnWidths(table, options.width);
  return widths ? tableText(table, widths, options.bold) : recordsText(table, options.width, options.bold);
}

/** Each column's width, or undefined when they cannot all be read within `width`. */
function columnWidths(table: TextTable, width: number | undefined): number[] | undefined {
  const natural = table.columns.map(displayWidth);
  for (const row of table.rows)
    row.forEach((cell, i) => {
      natural[i] = Math.max(natural[i] ?? 0, cellWidth(cell));
    });
  if (width === undefined) return natural;
  // One space before the first column and after the last (a line as wide as the terminal wraps
  // in some), SEPARATOR between columns.
  const room = width - 2 - SEPARATOR.length * Math.max(0, natural.length - 1);
  const fixed = natural.reduce((sum, w, i) => sum + (table.numeric[i] ? w : 0), 0);
  const shrinkable = natural.flatMap((w, i) => (table.numeric[i] ? [] : [w]));
  const left = room - fixed;
  if (shrinkable.reduce((sum, w) => sum + Math.min(w, MIN_COLUMN_WIDTH), 0) > left) return undefined;
  const cap = widestCap(shrinkable, left);
  if (cap === undefined) return natural;
  // The columns wider than the cap share it; the columns left over go to the first of them.
  let spare = left - shrinkable.reduce((sum, w) => sum + Math.min(w, cap), 0);
  return natural.map((w, i) => {
    if (table.numeric[i] || w <= cap) return w;
    const extra = spare > 0 && w > cap ? 1 : 0;
    spare -= extra;
    return cap + extra;
  });
}

/**
 * The largest width C (at least MIN_COLUMN_WIDTH) such that the columns, each cut to C, fit in
 * `room`; undefined when they fit whole.
 */
function widestCap(widths: readonly number[], room: number): number | undefined {
  const total = (cap: number) => widths.reduce((sum, w) => sum + Math.min(w, cap), 0);
  const widest = Math.max(0, ...widths);
  if (total(widest) <= room) return undefined;
  let low = MIN_COLUMN_WIDTH;
  let high = widest;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (total(mid) <= room) low = mid;
    else high = mid - 1;
  }
  return low;
}

function tableText(table: TextTable, widths: readonly number[], bold = false): Rendered {
  let cut = false;
  const line = (cells: readonly string[], style: (text: string) => string = (t) => t, between = SEPARATOR) =>
    ` ${cells
      .map((cell, i) => {
        const fitted = fitWidth(cell, widths[i]!);
        cut ||= fitted.cut;
        return style(padWidth(fitted.text, widths[i]!, table.numeric[i]));
      })
      .join(between)}`.trimEnd();
  const lines = [
    line(table.columns, bold ? boldText : undefined),
    // As wide as the rows: no trailing space after the last column, so no wrap at the last column.
    widths.map((w, i) => '─'.repeat(i === widths.length - 1 ? w + 1 : w + 2)).join('┼'),
  ];
  for (const row of table.rows) {
    const cells = row.map((cell) => cell.split('\n'));
    const height = Math.max(1, ...cells.map((c) => c.length));
    for (let k = 0; k < height; k++)
      lines.push(
        line(
          cells.map((c) => c[k] ?? ''),
          undefined,
          k === 0 ? SEPARATOR : GOES_ON,
        ),
      );
  }
  return { text: `${lines.join('\n')}\n`, cut, layout: 'table' };
}

function recordsText(table: TextTable, width: number | undefined, bold = false): Rendered {
  let cut = false;
  const longest = Math.max(0, ...table.columns.map(displayWidth));
  const labelWidth =
    width === undefined ? longest : Math.min(longest, Math.max(4, Math.floor(width * MAX_LABEL_SHARE)));
  const valueWidth = width === undefined ? undefined : Math.max(1, width - labelWidth - SEPARATOR.length);
  const labels = table.columns.map((name) => {
    const fitted = fitWidth(name, labelWidth);
    cut ||= fitted.cut;
    const label = padWidth(fitted.text, labelWidth);
    return bold ? boldText(label) : label;
  });
  const lines: string[] = [];
  table.rows.forEach((row, r) => {
    const values = row.map((cell) =>
      cell.split('\n').map((text) => {
        if (valueWidth === undefined) return text;
        const fitted = fitWidth(text, valueWidth);
        cut ||= fitted.cut;
        return fitted.text;
      }),
    );
    const widest = Math.max(0, ...values.flat().map(displayWidth));
    const title = `─[ row ${r + 1} ]`;
    const ruleWidth = Math.min(width ?? Number.POSITIVE_INFINITY, labelWidth + SEPARATOR.length + widest);
    lines.push(title + '─'.repeat(Math.max(0, ruleWidth - displayWidth(title))));
    const blank = ' '.repeat(labelWidth);
    values.forEach((valueLines, i) => {
      valueLines.forEach((value, k) => {
        lines.push(`${k === 0 ? labels[i] : blank}${SEPARATOR}${value}`.trimEnd());
      });
    });
  });
  return { text: lines.length ? `${lines.join('\n')}\n` : '', cut, layout: 'records' };
}

/** The columns a cell takes: its widest line's. */
function cellWidth(cell: string): number {
  if (!cell.includes('\n')) return displayWidth(cell);
  let widest = 0;
  for (const text of cell.split('\n')) widest = Math.max(widest, displayWidth(text));
  return widest;
}

function boldText(text: string): string {
  return `\u001b[1m${text}\u001b[22m`;
}
