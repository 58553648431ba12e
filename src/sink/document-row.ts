import { createHash } from 'node:crypto';
import type { Row } from '../normalize/rows.js';
import { noteRepairedText } from '../warehouse/duckdb/text-repairs.js';
import { wellFormed, wellFormedJson } from '../warehouse/duckdb/well-formed-text.js';

/** What the loader knows about a document besides the document itself. */
export interface DocumentContext {
  readonly hookId: string;
  readonly searchId: number | null;
  readonly searchType: string | null;
  /** ISO-8601 UTC acknowledgement time of the delivery. */
  readonly receivedAt: string;
  /** true / false after schema validation; null when no schema was stored for the type. */
  readonly validSchema: boolean | null;
}

/** Prefix of document ids derived from content, so they can never clash with the API's own ids. */
export const CONTENT_ID_PREFIX = 'sha256:';

/**
 * One pushed document as a `stream_documents` row. Pure but for the tally of repaired text
 * (a lone surrogate stored as U+FFFD: warehouse/duckdb/text-repairs.ts). The document is kept
 * whole (unknown fields included) as JSON text; the typed columns take a value only when it has the expected
 * type (a timestamp that does not parse becomes NULL rather than failing the whole publish).
 * A document without a usable `id` is kept with `sha256:<hex of its JSON text>`: the same
 * document delivered again yields the same id, so duplicates still collapse.
 */
export function toDocumentRow(document: unknown, ctx: DocumentContext): Row {
  const doc = isObject(document) ? document : {};
  const stringified = JSON.stringify(document) ?? 'null';
  // A lone surrogate (JSON.parse accepts `"\ud800"`) is written back as an escape DuckDB's
  // JSON refuses: the document is stored with U+FFFD there, and counted for the warning.
  const json = wellFormedJson(stringified);
  if (json !== stringified) noteRepairedText('stream_documents', 'document');
  return {
    hook_id: ctx.hookId,
    search_id: ctx.searchId,
    search_type: ctx.searchType,
    document_id: documentId(doc.id, stringified),
    published_date: timestamp(doc.published_date),
    indexed_date: timestamp(doc.indexed_date),
    url: text(doc.url, 'url'),
    source_name: isObject(doc.source) ? text(doc.source.name, 'source_name') : null,
    title: isObject(doc.content) ? text(doc.content.title, 'title') : null,
    language: text(doc.language, 'language'),
    country: text(doc.country, 'country'),
    received_at: ctx.receivedAt,
    valid_schema: ctx.validSchema,
    document: json,
  };
}

function documentId(id: unknown, json: string): string {
  if (typeof id === 'string' && id.length > 0) return text(id, 'document_id')!;
  if (typeof id === 'number' && Number.isFinite(id)) return String(id);
  return `${CONTENT_ID_PREFIX}${createHash('sha256').update(json).digest('hex')}`;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A string field as well-formed text (a lone surrogate becomes U+FFFD, counted against `column`). */
function text(value: unknown, column: string): string | null {
  if (typeof value !== 'string') return null;
  const repaired = wellFormed(value);
  if (repaired !== value) noteRepairedText('stream_documents', column);
  return repaired;
}

/** ISO-8601 UTC text of a date-time string, or null when absent or unparseable. */
function timestamp(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? null : new Date(ms).toISOString();
}
