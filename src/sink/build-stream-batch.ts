import type { ValidateFunction } from 'ajv';
import type { Row } from '../normalize/rows.js';
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
 * Turns inbox deliveries into the rows of one stream publish. Pure apart from the validators.
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
    for (const document of body.documents) {
      documents.push(
        toDocumentRow(document, {
          hookId: delivery.hook_id,
          searchId,
          searchType,
          receivedAt: delivery.received_at,
          validSchema: validate ? validate(document) : null,
        }),
      );
    }
  }
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

function numberOrNull(value: unknown): number | null {
  const n = typeof value === 'string' ? Number(value) : value;
  return typeof n === 'number' && Number.isSafeInteger(n) ? n : null;
}
