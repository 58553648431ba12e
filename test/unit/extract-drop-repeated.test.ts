import { describe, expect, it } from 'vitest';
import { dropRepeated } from '../../src/extract/drop-repeated.js';

const byId = (record: Record<string, unknown>) => (typeof record.id === 'string' ? record.id : null);

describe('dropRepeated', () => {
  it('returns the page itself when no key repeats', () => {
    const seen = new Set<string>();
    const page = [{ id: 'a' }, { id: 'b' }];
    expect(dropRepeated(page, byId, seen)).toBe(page);
    expect([...seen]).toEqual(['a', 'b']);
  });

  it('keeps the first record of a key across pages and within one, and passes keyless records', () => {
    const seen = new Set<string>();
    dropRepeated([{ id: 'a' }, { id: 'b' }], byId, seen);
    expect(dropRepeated([{ id: 'b', v: 2 }, { id: 'c' }, {}, { id: 'c', v: 3 }, {}], byId, seen)).toEqual([
      { id: 'c' },
      {},
      {},
    ]);
  });
});
