import { describe, expect, it } from 'vitest';
import { JsonTooDeepError, MAX_JSON_DEPTH } from '../../src/util/json-depth.js';
import { parseJsonExact, stringifyExact } from '../../src/util/parse-json-exact.js';

describe('parseJsonExact', () => {
  it('parses as JSON.parse does when no integer passes 2^53', () => {
    for (const text of [
      '{"a":1,"b":[1.5,-2,"x"],"c":null,"d":true}',
      '{"n":9007199254740991,"m":-9007199254740991,"f":0.12345678901234567}',
      '{"url":"https://t.example/video/7234567890123456789","id":"72345678901234567890"}',
      '{"a":1,"a":2}',
      '{"__proto__":{"x":1}}',
      '[]',
      '"text"',
    ])
      expect(parseJsonExact(text), text).toEqual(JSON.parse(text));
  });

  it('keeps integers beyond 2^53 exact as bigint, anywhere in the text', () => {
    expect(parseJsonExact('{"engagement":9007199254740993}')).toEqual({ engagement: 9007199254740993n });
    expect(parseJsonExact('[-12345678901234567890, 1.5, 9007199254740991]')).toEqual([
      -12345678901234567890n,
      1.5,
      9007199254740991,
    ]);
    // The rest of such a text is as JSON.parse reads it: the last repeated key, own __proto__.
    const parsed = parseJsonExact('{"a":1,"a":9007199254740993,"__proto__":{"x":1}}') as Record<
      string,
      unknown
    >;
    expect(parsed.a).toBe(9007199254740993n);
    expect(Object.getPrototypeOf(parsed)).toBe(Object.prototype);
    expect(Object.hasOwn(parsed, '__proto__')).toBe(true);
    // Beside a big integer, a fraction or an exponent reads as JSON.parse reads it (a double).
    expect(parseJsonExact('[1e3, 1.5e-7, 12345678901234567.5, 9007199254740993]')).toEqual([
      1000,
      1.5e-7,
      Number('12345678901234567.5'),
      9007199254740993n,
    ]);
    // Without one, an exponent takes the common path: 1e17 stays a double (toCount refuses it).
    expect(parseJsonExact('[1e17, 9007199254740993e0]')).toEqual([1e17, 9007199254740992]);
  });

  it('refuses what is not JSON with a SyntaxError, on either path', () => {
    expect(() => parseJsonExact('{"a": ')).toThrow(SyntaxError);
    expect(() => parseJsonExact('{"a": 12345678901234567890')).toThrow(SyntaxError);
  });

  it('refuses a text nested too deep before parsing it, naming where', () => {
    const deep = `{"stats":${'{"a":'.repeat(10_000)}1${'}'.repeat(10_001)}`;
    expect(() => parseJsonExact(deep, 'GET /v3/x: reply')).toThrow(
      new JsonTooDeepError('GET /v3/x: reply', MAX_JSON_DEPTH),
    );
    const fine = `${'['.repeat(MAX_JSON_DEPTH)}${']'.repeat(MAX_JSON_DEPTH)}`;
    expect(() => parseJsonExact(fine)).not.toThrow();
    expect(() => parseJsonExact(`[${fine}]`)).toThrow(JsonTooDeepError);
  });
});

describe('stringifyExact', () => {
  it('writes what JSON.stringify writes, and bigints as their digits', () => {
    expect(stringifyExact({ a: 1, b: 'x' })).toBe('{"a":1,"b":"x"}');
    expect(stringifyExact({ a: 9007199254740993n, b: [1.5, null] })).toBe(
      '{"a":9007199254740993,"b":[1.5,null]}',
    );
    const text = '{"id":"p1","engagement":9007199254740993,"stats":{"views":12345678901234567890}}';
    expect(stringifyExact(parseJsonExact(text))).toBe(text);
  });
});

describe('stringifyExact with indentation', () => {
  it('indents as JSON.stringify does, bigints included', () => {
    expect(stringifyExact({ a: [1] }, 'x', 2)).toBe(JSON.stringify({ a: [1] }, null, 2));
    expect(stringifyExact({ maximum: 9223372036854775807n }, 'schema', 2)).toBe(
      '{\n  "maximum": 9223372036854775807\n}',
    );
  });
});
