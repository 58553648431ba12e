/**
 * The coercions of API values to column values (src/normalize/coerce.ts): a figure is stored
 * as sent or refused (NULL, counted by field and reason), never rounded or reinterpreted.
 */
import { describe, expect, it } from 'vitest';
import { json, toCount, toId, toNumber, toTimestamp } from '../../src/normalize/coerce.js';
import { normalizePosts } from '../../src/normalize/index.js';
import { MAX_REFUSED_LINES, RefusedValues } from '../../src/normalize/refused-values.js';
import { JsonTooDeepError } from '../../src/util/json-depth.js';
import { parseJsonExact } from '../../src/util/parse-json-exact.js';

/** The value stored and the reason refused (undefined when taken). */
function count(value: unknown): [unknown, string | undefined] {
  const refused = new RefusedValues();
  const stored = toCount(value, 't.c', refused);
  return [stored, refused.lines()[0]?.replace(/^t\.c: 1 value stored as NULL: | \(first: .*$/g, '')];
}

function number(value: unknown): [unknown, string | undefined] {
  const refused = new RefusedValues();
  const stored = toNumber(value, 't.c', refused);
  return [stored, refused.lines()[0]?.replace(/^t\.c: 1 value stored as NULL: | \(first: .*$/g, '')];
}

describe('toCount (BIGINT columns)', () => {
  it('takes whole numbers and decimal numeric strings as sent', () => {
    expect(count(47177)).toEqual([47177, undefined]);
    expect(count(-3)).toEqual([-3, undefined]);
    expect(count('12')).toEqual([12, undefined]);
    expect(count(' 12\n')).toEqual([12, undefined]);
    expect(count('12.0')).toEqual([12, undefined]);
    expect(count('1e3')).toEqual([1000, undefined]);
    expect(count(null)).toEqual([null, undefined]);
    expect(count(undefined)).toEqual([null, undefined]);
  });

  it('refuses a fraction instead of rounding it', () => {
    expect(count(47177.5)).toEqual([null, 'not a whole number']);
    expect(count(374144.25)).toEqual([null, 'not a whole number']);
    expect(count('1000.6')).toEqual([null, 'not a whole number']);
  });

  it('keeps integers beyond 2^53 exact, as decimal text, up to the BIGINT bounds', () => {
    expect(count(9007199254740993n)).toEqual(['9007199254740993', undefined]);
    expect(count('9007199254740993')).toEqual(['9007199254740993', undefined]);
    expect(count(9223372036854775807n)).toEqual(['9223372036854775807', undefined]);
    expect(count(-9223372036854775808n)).toEqual(['-9223372036854775808', undefined]);
    expect(count(9223372036854775808n)).toEqual([null, 'beyond the BIGINT range']);
    expect(count('99999999999999999999')).toEqual([null, 'beyond the BIGINT range']);
    // A double past 2^53 (an exponent literal) no longer says which integer was meant.
    expect(count(2 ** 60)).toEqual([null, 'too large to be exact']);
    expect(count(Number.POSITIVE_INFINITY)).toEqual([null, 'too large to be exact']);
  });

  it('refuses strings that are not decimal numbers as JSON writes them', () => {
    for (const text of [
      '0x1F',
      '1e',
      'Infinity',
      '-Infinity',
      'NaN',
      'n/a',
      '0b1',
      '0o7',
      ' ',
      '',
      '1_000',
      '+5',
      '.5',
      '5.',
      '007',
      '1,000',
      '١٢',
    ])
      expect(count(text), text).toEqual([null, 'not a decimal number']);
  });

  it('refuses what is not a number at all', () => {
    expect(count(true)).toEqual([null, 'not a number']);
    expect(count({ a: 1 })).toEqual([null, 'not a number']);
    expect(count([1])).toEqual([null, 'not a number']);
  });
});

describe('toNumber (DOUBLE columns)', () => {
  it('takes numbers and decimal numeric strings, fractions as the nearest double', () => {
    expect(number(0.042)).toEqual([0.042, undefined]);
    expect(number('55.5')).toEqual([55.5, undefined]);
    expect(number('-1.5e-3')).toEqual([-0.0015, undefined]);
    expect(number('0.1234567890123456789')).toEqual([Number('0.1234567890123456789'), undefined]);
    expect(number(2 ** 60)).toEqual([2 ** 60, undefined]);
    expect(number('1180591620717411303424')).toEqual([2 ** 70, undefined]); // 2^70: a double holds it
  });

  it('refuses an integer a double cannot hold exactly, and any string that is not a decimal number', () => {
    expect(number(9007199254740993n)).toEqual([null, 'an integer too large for a DOUBLE to hold exactly']);
    expect(number('9007199254740993')).toEqual([null, 'an integer too large for a DOUBLE to hold exactly']);
    expect(number(9007199254740992n)).toEqual([9007199254740992, undefined]);
    expect(number('1e400')).toEqual([null, 'beyond the DOUBLE range']);
    expect(number(Number.POSITIVE_INFINITY)).toEqual([null, 'beyond the DOUBLE range']);
    for (const text of ['0x1F', '1e', 'Infinity', 'NaN', 'n/a', '0b1', ' ', '1_000'])
      expect(number(text), text).toEqual([null, 'not a decimal number']);
    expect(number(false)).toEqual([null, 'not a number']);
  });
});

describe('RefusedValues', () => {
  it('reports one line per field and reason, with the count and the first value', () => {
    const refused = new RefusedValues();
    toCount(47177.5, 'post_metrics.engagement', refused);
    toCount(1.5, 'post_metrics.engagement', refused);
    toCount('0x1F', 'post_metrics.engagement', refused);
    toNumber('x'.repeat(100), 'post_metrics.emv', refused);
    expect(refused.total).toBe(4);
    expect(refused.lines()).toEqual([
      'post_metrics.engagement: 2 values stored as NULL: not a whole number (first: 47177.5)',
      `post_metrics.emv: 1 value stored as NULL: not a decimal number (first: "${'x'.repeat(39)}...)`,
      'post_metrics.engagement: 1 value stored as NULL: not a decimal number (first: "0x1F")',
    ]);
  });

  it('bounds the lines however many fields are refused', () => {
    const refused = new RefusedValues();
    for (let i = 0; i < MAX_REFUSED_LINES + 5; i++) toCount('bad', `t.c${i}`, refused);
    const lines = refused.lines();
    expect(lines).toHaveLength(MAX_REFUSED_LINES + 1);
    expect(lines.at(-1)).toBe('5 more values stored as NULL in 5 more fields or reasons');
  });
});

describe('ids, times and raw JSON of exact values', () => {
  it('keeps a big integer id and raw JSON digit for digit', () => {
    const record = parseJsonExact('{"id":12345678901234567890,"engagement":9007199254740993,"emv":1.5}');
    expect(toId((record as { id: unknown }).id)).toBe('12345678901234567890');
    expect(json(record)).toBe('{"id":12345678901234567890,"engagement":9007199254740993,"emv":1.5}');
  });

  it('gives a time outside Date range as NULL, not an exception', () => {
    expect(toTimestamp(1e20)).toBeNull();
    expect(toTimestamp(9007199254740993n)).toBeNull();
  });

  it('refuses raw JSON too deep to write with a typed error', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 20_000; i++) deep = { a: deep };
    expect(() => json(deep)).toThrow(JsonTooDeepError);
  });
});

describe('a stats object nested deep', () => {
  let deep: unknown = 1;
  for (let i = 0; i < 20_000; i++) deep = { a: deep };
  const post = { id: 'p1', engagement: 5, stats: { likes: 3, odd: deep } };
  const ctx = {
    snapshotDate: '2026-03-05',
    segment: 'all',
    seenAt: '2026-03-05T21:40:00.000Z',
    campaignId: '1',
  };

  it('is walked flat: the deep stat is one refused value', () => {
    const refused = new RefusedValues();
    const rows = normalizePosts([post], { ...ctx, segment: 'tiktok', refused });
    expect(rows.post_stats!.map((row) => [row.stat, row.value])).toEqual([
      ['likes', 3],
      ['odd', null],
    ]);
    expect(refused.lines()).toEqual([
      'post_stats.value (stat odd): 1 value stored as NULL: not a number (first: an object)',
    ]);
  });

  it('its raw JSON is refused with a typed error, never a stack overflow', () => {
    expect(() => normalizePosts([post], ctx)).toThrow(JsonTooDeepError);
  });
});
