import type { Row } from '../../src/normalize/rows.js';
import type { StreamBatch } from '../../src/warehouse/types.js';

/** A stream document row as the sink's loader emits it. */
export function streamDocument(
  hookId: string,
  documentId: string,
  publishedDate: string,
  receivedAt: string,
): Row {
  return {
    hook_id: hookId,
    search_id: 7,
    search_type: 'editorial',
    document_id: documentId,
    published_date: publishedDate,
    indexed_date: publishedDate,
    url: `https://news.example/${documentId}`,
    source_name: 'Daily News',
    title: `Title ${documentId}`,
    language: 'en',
    country: 'GB',
    received_at: receivedAt,
    valid_schema: true,
    document: JSON.stringify({ id: documentId, extra: 'kept' }),
  };
}

/** Three documents of search 7, d1 delivered twice to h1 and once to h2. */
export function sampleStreamBatch(): StreamBatch {
  return {
    documents: [
      streamDocument('h1', 'd1', '2026-11-20T08:00:00Z', '2026-11-21T09:00:05Z'),
      streamDocument('h1', 'd1', '2026-11-20T08:00:00Z', '2026-11-21T09:00:01Z'),
      streamDocument('h2', 'd1', '2026-11-20T08:00:00Z', '2026-11-21T09:00:02Z'),
      streamDocument('h1', 'd2', '2026-11-20T09:00:00Z', '2026-11-21T09:00:03Z'),
      streamDocument('h1', 'd3', '2026-11-21T07:00:00Z', '2026-11-21T09:00:04Z'),
    ],
    deliveries: [
      { delivery_id: 1, hook_id: 'h1', received_at: '2026-11-21T09:00:01Z', documents: 3, bytes: 900 },
      { delivery_id: 2, hook_id: 'h2', received_at: '2026-11-21T09:00:02Z', documents: 1, bytes: 300 },
      { delivery_id: 2, hook_id: 'h2', received_at: '2026-11-21T09:00:02Z', documents: 1, bytes: 300 },
    ],
    hooks: [
      {
        hook_id: 'h1',
        search_id: 7,
        search_type: 'editorial',
        target_url: 'https://sink.example/h',
        status: 'PENDING',
        updated: '2026-11-21T08:00:00Z',
        version: '1',
        created_at: '2026-11-21T08:00:00Z',
        deleted_at: null,
      },
      {
        hook_id: 'h1',
        search_id: 7,
        search_type: 'editorial',
        target_url: 'https://sink.example/h',
        status: 'ACTIVE',
        updated: '2026-11-21T08:01:00Z',
        version: '2',
        created_at: '2026-11-21T08:00:00Z',
        deleted_at: null,
      },
      {
        hook_id: 'h2',
        search_id: 7,
        search_type: 'editorial',
        target_url: 'https://sink.example/h2',
        status: 'ACTIVE',
        updated: '2026-11-21T08:00:00Z',
        version: '1',
        created_at: '2026-11-21T08:00:00Z',
        deleted_at: null,
      },
    ],
  };
}

/** Delivery `n` to hook h1 of `documents` new documents (`d<n>-<i>`), received on `day` at 09:00. */
export function deliveryBatch(n: number, documents: number, day: string): StreamBatch {
  const receivedAt = `${day}T09:00:00Z`;
  return {
    documents: Array.from({ length: documents }, (_, i) =>
      streamDocument('h1', `d${n}-${i}`, `${day}T08:00:00Z`, receivedAt),
    ),
    deliveries: [
      { delivery_id: n, hook_id: 'h1', received_at: receivedAt, documents, bytes: documents * 100 },
    ],
    hooks: [],
  };
}
