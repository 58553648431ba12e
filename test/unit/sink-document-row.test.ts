import { describe, expect, it } from 'vitest';
import { buildStreamBatch } from '../../src/sink/build-stream-batch.js';
import { CONTENT_ID_PREFIX, toDocumentRow } from '../../src/sink/document-row.js';
import { hookPath, newPathToken, parseHookPath } from '../../src/sink/hook-path.js';

const CTX = {
  hookId: 'h1',
  searchId: 7,
  searchType: 'editorial',
  receivedAt: '2026-11-21T09:00:00.000Z',
  validSchema: null,
};

describe('toDocumentRow', () => {
  it('maps the profile fields and keeps the whole document, unknown fields included', () => {
    const doc = {
      id: 'd1',
      published_date: '2026-11-20T08:00:00+01:00',
      indexed_date: '2026-11-20T08:05:00Z',
      url: 'https://news.example/d1',
      source: { id: 's1', name: 'Daily News' },
      content: { title: 'Hello' },
      language: 'en',
      country: 'GB',
      surprise: { nested: [1, 2] },
    };
    expect(toDocumentRow(doc, { ...CTX, validSchema: true })).toEqual({
      hook_id: 'h1',
      search_id: 7,
      search_type: 'editorial',
      document_id: 'd1',
      published_date: '2026-11-20T07:00:00.000Z',
      indexed_date: '2026-11-20T08:05:00.000Z',
      url: 'https://news.example/d1',
      source_name: 'Daily News',
      title: 'Hello',
      language: 'en',
      country: 'GB',
      received_at: '2026-11-21T09:00:00.000Z',
      valid_schema: true,
      document: JSON.stringify(doc),
    });
  });

  it('turns wrongly typed fields into NULL instead of failing', () => {
    const row = toDocumentRow(
      { id: 42, published_date: 'yesterday', url: 5, source: 'x', content: null },
      CTX,
    );
    expect(row).toMatchObject({
      document_id: '42',
      published_date: null,
      url: null,
      source_name: null,
      title: null,
    });
  });

  it('gives a document without id a stable content hash id', () => {
    const a = toDocumentRow({ title: 'no id' }, CTX);
    const b = toDocumentRow({ title: 'no id' }, CTX);
    const c = toDocumentRow({ title: 'other' }, CTX);
    expect(String(a.document_id)).toMatch(new RegExp(`^${CONTENT_ID_PREFIX}[0-9a-f]{64}$`));
    expect(a.document_id).toBe(b.document_id);
    expect(a.document_id).not.toBe(c.document_id);
    expect(toDocumentRow('just text', CTX).document).toBe('"just text"');
  });
});

describe('buildStreamBatch', () => {
  it('emits one delivery row per delivery and one document row per document', () => {
    const body = Buffer.from(
      JSON.stringify({ request: { search_id: 9 }, documents: [{ id: 'a' }, { id: 'b' }] }),
    );
    const batch = buildStreamBatch(
      [
        {
          delivery_id: 3,
          hook_id: 'gone',
          received_at: CTX.receivedAt,
          body,
          bytes: body.length,
          documents: 2,
        },
      ],
      { hooks: new Map(), validator: () => undefined },
      [],
    );
    expect(batch.deliveries).toEqual([
      { delivery_id: 3, hook_id: 'gone', received_at: CTX.receivedAt, documents: 2, bytes: body.length },
    ]);
    expect(batch.documents.map((d) => [d.document_id, d.search_id, d.valid_schema])).toEqual([
      ['a', 9, null],
      ['b', 9, null],
    ]);
  });
});

describe('hook paths', () => {
  it('makes unguessable url-safe tokens and parses them back', () => {
    const token = newPathToken();
    expect(token).toMatch(/^[A-Za-z0-9_-]{22,}$/);
    expect(newPathToken()).not.toBe(token);
    expect(hookPath(token)).toBe(`/hooks/${token}`);
    expect(parseHookPath(hookPath(token))).toBe(token);
    expect(parseHookPath('/hooks/')).toBeUndefined();
    expect(parseHookPath('/hooks/a/b')).toBeUndefined();
    expect(parseHookPath('/other/abc')).toBeUndefined();
    expect(() => hookPath('../x')).toThrow(RangeError);
  });
});
