import { isUtf8 } from 'node:buffer';
import type { ValidateFunction } from 'ajv';
import type { Row } from '../normalize/rows.js';
import { createLogger, type Logger } from '../util/logger.js';
import { noteRepairedText, repairedTextMessage, takeRepairedText } from '../warehouse/duckdb/text-repairs.js';
import { REPLACEMENT_CHARACTER } from '../warehouse/duckdb/well-formed-text.js';
import type { StreamBatch } from '../warehouse/index.js';
import { toDocumentRow } from './document-row.js';

/** A delivery as read back from the inbox. */
export interface StoredDelivery {
  readonly delivery_id: number;
  readonly hook_id: string;
  readonly received_at: string;
  readonly body: Buffer;
  readonly bytes: number;
  readonly documents: number;
}

/** How the loader finds a hook's search and a search type's validator. */
export interface BatchLookups {
  readonly hooks: ReadonlyMap<
    string,
    { readonly searchId: number | null; readonly searchType: string | null }
  >;
  /** undefined: no schema stored for this type (or validation off), valid_schema is NULL. */
  validator(searchType: string | null): ValidateFunction | undefined;
}

/**
 * Turns inbox deliveries into the rows of one stream publish. Pure apart from the validators
 * and the one warning line of a batch whose text was repaired (document-row.ts).
 * The body was verified and parsed once at acknowledgement, so it parses here too; should a
 * stored body still not parse, its delivery row is kept with no documents rather than blocking
 * every later delivery behind it.
 */
export function buildStreamBatch(
  deliveries: readonly StoredDelivery[],
  lookups: BatchLookups,
  hooks: Row[],
): StreamBatch {
  const documents: Row[] = [];
  const deliveryRows: Row[] = [];
  for (const delivery of deliveries) {
    deliveryRows.push({
      delivery_id: delivery.delivery_id,
      hook_id: delivery.hook_id,
      received_at: delivery.received_at,
      documents: delivery.documents,
      bytes: delivery.bytes,
    });
    const body = parseBody(delivery.body);
    const hook = lookups.hooks.get(delivery.hook_id);
    const searchId = hook?.searchId ?? numberOrNull(body.request?.search_id);
    const searchType = hook?.searchType ?? null;
    const validate = lookups.validator(searchType);
    // Bytes that are not UTF-8 were read as U+FFFD (Buffer.toString): counted with the rest.
    const invalidUtf8 = !isUtf8(delivery.body);
    for (const document of body.documents) {
      const row = toDocumentRow(document, {
        hookId: delivery.hook_id,
        searchId,
        searchType,
        receivedAt: delivery.received_at,
        validSchema: validate ? validate(document) : null,
      });
      if (invalidUtf8 && String(row.document).includes(REPLACEMENT_CHARACTER))
        noteRepairedText('stream_documents', 'document');
      documents.push(row);
    }
  }
  warnRepairedText();
  return { documents, deliveries: deliveryRows, hooks };
}

interface DeliveryBody {
  readonly request?: { readonly search_id?: unknown };
  readonly documents: readonly unknown[];
}

function parseBody(raw: Buffer): DeliveryBody {
  try {
    const parsed = JSON.parse(raw.toString('utf8')) as { request?: unknown; documents?: unknown };
    const request =
      typeof parsed.request === 'object' && parsed.request !== null ? parsed.request : undefined;
    return { request, documents: Array.isArray(parsed.documents) ? parsed.documents : [] };
  } catch {
    return { documents: [] };
  }
}

let logger: Logger | undefined;

/** One line per batch that held broken text (lone surrogates, bytes not UTF-8), stored as U+FFFD. */
function warnRepairedText(): void {
  const repaired = takeRepairedText();
  if (!repaired) return;
  logger ??= createLogger('sink');
  logger.warn({ repairedText: repaired.fields }, `sink: ${repairedTextMessage(repaired)}`);
}

function numberOrNull(value: unknown): number | null {
  const n = typeof value === 'string' ? Number(value) : value;
  return typeof n === 'number' && Number.isSafeInteger(n) ? n : null;
}
