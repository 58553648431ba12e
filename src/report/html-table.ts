/** Escaping and the data tables under each chart (the numbers, for screen readers and copying). */
import type { Value } from '../normalize/rows.js';

/**
 * How a column's values are shown; every kind but text also carries its exact value.
 * count: whole number; amount: money, two decimals; number: either, up to two decimals.
 */
export type ColumnKind = 'text' | 'count' | 'amount' | 'number' | 'date' | 'time';

export interface Column {
  readonly key: string;
  readonly label: string;
  readonly kind: ColumnKind;
}

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Escapes text for HTML content and quoted attribute values. */
export function escapeHtml(value: unknown): string {
  return String(value).replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

const COUNT = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const AMOUNT = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const NUMBER = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });

/**
 * A value as shown: counts and amounts with thousands separators, times in ISO 8601 UTC to
 * the second (as status, the log and the demo show them).
 */
export function formatValue(value: Value, kind: ColumnKind): string {
  if (value === null) return '—';
  if (kind === 'count' && typeof value === 'number') return COUNT.format(value);
  if (kind === 'amount' && typeof value === 'number') return AMOUNT.format(value);
  if (kind === 'number' && typeof value === 'number') return NUMBER.format(value);
  if (kind === 'time') return String(value).replace(/\.\d+Z$/, 'Z');
  return String(value);
}

/**
 * A table of rows: numbers, dates and times in a <data> element whose value is the exact
 * figure (the text is rounded for reading). In a focusable, labelled region that scrolls
 * when long, so the page stays short and keyboard users can scroll it.
 */
export function htmlTable(
  id: string,
  caption: string,
  columns: readonly Column[],
  rows: readonly Record<string, Value>[],
): string {
  const head = columns.map(
    (c) => `<th scope="col"${numeric(c) ? ' class="num"' : ''}>${escapeHtml(c.label)}</th>`,
  );
  const body = rows.map((row) => `<tr>${columns.map((c) => cell(row[c.key] ?? null, c)).join('')}</tr>`);
  return [
    `<div class="table-wrap" role="region" tabindex="0" aria-labelledby="${id}-caption">`,
    `<table id="${id}"><caption id="${id}-caption">${escapeHtml(caption)}</caption>`,
    `<thead><tr>${head.join('')}</tr></thead>`,
    `<tbody>${body.join('\n')}</tbody></table></div>`,
  ].join('\n');
}

function numeric(column: Column): boolean {
  return column.kind === 'count' || column.kind === 'amount' || column.kind === 'number';
}

function cell(value: Value, column: Column): string {
  const text = escapeHtml(formatValue(value, column.kind));
  const cls = numeric(column) ? ' class="num"' : '';
  if (column.kind === 'text' || value === null) return `<td${cls}>${text}</td>`;
  return `<td${cls}><data value="${escapeHtml(value)}">${text}</data></td>`;
}
