import { describe, expect, it } from 'vitest';
import {
  JsonTooDeepError,
  jsonDepthExceeds,
  MAX_JSON_DEPTH,
  valueDepthExceeds,
} from '../../src/util/json-depth.js';

const nested = (depth: number) => `${'{"a":'.repeat(depth - 1)}[]${'}'.repeat(depth - 1)}`;

describe('jsonDepthExceeds', () => {
  it('counts arrays and objects, not scalars', () => {
    expect(jsonDepthExceeds('1', 0)).toBe(false);
    expect(jsonDepthExceeds('"x"', 0)).toBe(false);
    expect(jsonDepthExceeds('[]', 0)).toBe(true);
    expect(jsonDepthExceeds('[]', 1)).toBe(false);
    expect(jsonDepthExceeds('{"a":[1,{"b":2}]}', 2)).toBe(true);
    expect(jsonDepthExceeds('{"a":[1,{"b":2}]}', 3)).toBe(false);
    expect(jsonDepthExceeds('[[],[],[]]', 2)).toBe(false);
  });

  it('is exact at the default limit', () => {
    expect(jsonDepthExceeds(nested(MAX_JSON_DEPTH))).toBe(false);
    expect(jsonDepthExceeds(nested(MAX_JSON_DEPTH + 1))).toBe(true);
  });

  it('ignores brackets inside strings, escaped quotes included', () => {
    expect(jsonDepthExceeds('["[[[[", "{{{{"]', 1)).toBe(false);
    expect(jsonDepthExceeds('["a\\"[[[[", "\\\\"]', 1)).toBe(false);
    expect(jsonDepthExceeds('["\\\\", [[]]]', 2)).toBe(true);
    expect(jsonDepthExceeds('["unterminated [[[[', 1)).toBe(false);
  });

  it('scans 100,000 levels without recursion', () => {
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    expect(jsonDepthExceeds(deep)).toBe(true);
    expect(jsonDepthExceeds(deep, 100_000)).toBe(false);
  });
});

describe('valueDepthExceeds', () => {
  it('measures a parsed value as the text scan measures its text', () => {
    for (const depth of [1, 2, 10, MAX_JSON_DEPTH, MAX_JSON_DEPTH + 1]) {
      const text = nested(depth);
      expect(valueDepthExceeds(JSON.parse(text))).toBe(jsonDepthExceeds(text));
    }
    expect(valueDepthExceeds(42, 0)).toBe(false);
    expect(valueDepthExceeds(JSON.parse(`${'['.repeat(100_000)}${']'.repeat(100_000)}`))).toBe(true);
  });
});

describe('JsonTooDeepError', () => {
  it('names where and the limit in one line', () => {
    expect(new JsonTooDeepError('GET /v3/x: reply').message).toBe(
      `GET /v3/x: reply: nested deeper than ${MAX_JSON_DEPTH} levels`,
    );
  });
});
