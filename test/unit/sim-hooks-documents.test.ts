import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { DocumentGenerator } from '../../src/simulator/hooks/document-generator.js';
import { SEARCH_TYPES, type SearchType } from '../../src/simulator/hooks/searches.js';
import type { StreamDocument } from '../../src/simulator/hooks/stream-document.js';
import { streamingSchema } from '../../src/simulator/hooks/streaming-schemas.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;
const NOW = new Date('2026-03-14T12:00:00.000Z');

function generate(type: SearchType, count: number, seed = 7, ordinal = 1): StreamDocument[] {
  const generator = new DocumentGenerator(seed, ordinal, type, () => NOW);
  return Array.from({ length: count }, () => generator.next());
}

function validatorFor(type: SearchType) {
  const ajv = new Ajv({ strict: true, allErrors: true });
  addFormats(ajv);
  return ajv.compile(streamingSchema(type));
}

describe('streaming documents and their schemas', () => {
  it.each(SEARCH_TYPES)('every generated %s document validates against its draft-07 schema', (type) => {
    const validate = validatorFor(type);
    for (const doc of generate(type, 200)) {
      const ok = validate(doc);
      expect(validate.errors ?? [], JSON.stringify(doc)).toEqual([]);
      expect(ok).toBe(true);
    }
  });

  it('declares draft-07 and allows unknown fields, at the top level and inside objects', () => {
    const schema = streamingSchema('social');
    expect(schema.$schema).toBe('http://json-schema.org/draft-07/schema#');
    const validate = validatorFor('social');
    const [doc] = generate('social', 1) as [StreamDocument & { source: object }];
    expect(validate({ ...doc, sentiment: 'positive', source: { ...doc.source, rank: 3 } })).toBe(true);
  });

  it.each([
    ['social', 'metrics'],
    ['social', 'author'],
    ['editorial', 'publisher'],
    ['broadcast', 'air_time'],
    ['broadcast', 'url'],
  ] as const)('a %s document without %s fails its schema', (type, field) => {
    const validate = validatorFor(type);
    const doc: Record<string, unknown> = { ...generate(type, 1)[0] };
    delete doc[field];
    expect(validate(doc)).toBe(false);
  });

  it('rejects a non-UTC-looking date and a wrong-type metric', () => {
    const validate = validatorFor('social');
    const doc = generate('social', 1)[0] as StreamDocument & { metrics: object };
    expect(validate({ ...doc, published_date: 'yesterday' })).toBe(false);
    expect(validate({ ...doc, metrics: { ...doc.metrics, likes: '12' } })).toBe(false);
  });

  it('is deterministic per seed and hook ordinal, and differs across seeds', () => {
    expect(generate('editorial', 5, 7)).toEqual(generate('editorial', 5, 7));
    expect(generate('editorial', 5, 8)).not.toEqual(generate('editorial', 5, 7));
  });

  it('gives unique ids across hooks and many documents', () => {
    const ids = [
      ...generate('social', 500, 7, 1),
      ...generate('social', 500, 7, 2),
      ...generate('broadcast', 500, 7, 3),
    ].map((d) => d.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('looks realistic: several sources, languages and countries, UTC dates, 1-2 KB each', () => {
    for (const type of SEARCH_TYPES) {
      const docs = generate(type, 300);
      expect(new Set(docs.map((d) => d.source.id)).size).toBeGreaterThanOrEqual(4);
      expect(new Set(docs.map((d) => d.language)).size).toBeGreaterThanOrEqual(4);
      expect(new Set(docs.map((d) => d.country)).size).toBeGreaterThanOrEqual(4);
      for (const doc of docs) {
        expect(doc.published_date).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
        expect(doc.indexed_date >= doc.published_date).toBe(true);
        expect(doc.indexed_date <= NOW.toISOString()).toBe(true);
        expect(doc.source.information_type).toBe(type);
      }
      const sizes = docs.map((d) => Buffer.byteLength(JSON.stringify(d)));
      const mean = sizes.reduce((a, b) => a + b, 0) / sizes.length;
      expect(mean).toBeGreaterThan(900);
      expect(mean).toBeLessThan(2100);
    }
  });
});
