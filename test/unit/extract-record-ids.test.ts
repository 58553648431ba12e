/** A page's ids, as the extractor reads them from the API's lists. */
import { describe, expect, it } from 'vitest';
import { recordIds } from '../../src/extract/first-contact.js';

describe('recordIds', () => {
  it('reads string, number and big integer ids, and skips any other (never calls an object’s toString)', () => {
    const page = [
      { id: 'a' },
      { id: 7 },
      { id: 9007199254740993n },
      { id: { toString: 0 } },
      { id: [['x']] },
      { id: null },
      {},
      { id: '' },
    ];
    expect(recordIds(page)).toEqual(['a', '7', '9007199254740993']);
  });
});
