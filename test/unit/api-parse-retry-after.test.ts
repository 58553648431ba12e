import { describe, expect, it } from 'vitest';
import { parseRetryAfter } from '../../src/api/parse-retry-after.js';

const now = Date.parse('2026-11-23T00:00:00Z');

describe('parseRetryAfter', () => {
  it('reads an ISO-8601 timestamp', () => {
    expect(parseRetryAfter('2026-11-23T00:00:05Z', now)).toBe(5000);
    expect(parseRetryAfter('2026-11-23T00:00:05.500Z', now)).toBe(5500);
    expect(parseRetryAfter('2026-11-23T01:00:05+01:00', now)).toBe(5000);
  });
  it('reads an HTTP-date', () => {
    expect(parseRetryAfter('Mon, 23 Nov 2026 00:00:07 GMT', now)).toBe(7000);
  });
  it('reads Unix epoch seconds', () => {
    expect(parseRetryAfter(String(now / 1000 + 3), now)).toBe(3000);
  });
  it('reads delta-seconds', () => {
    expect(parseRetryAfter('4', now)).toBe(4000);
    expect(parseRetryAfter('0', now)).toBe(0);
  });
  it('never returns a negative wait for a past time', () => {
    expect(parseRetryAfter('2026-11-22T23:59:00Z', now)).toBe(0);
    expect(parseRetryAfter(String(now / 1000 - 60), now)).toBe(0);
  });
  it('returns undefined for absent or garbage values', () => {
    for (const bad of [undefined, '', 'soon', '-5', '12abc', 'tomorrow 12', '1e3', '2026-13-45'])
      expect(parseRetryAfter(bad, now), String(bad)).toBeUndefined();
  });
});
