import { describe, expect, it } from 'vitest';
import { BACKOFF_CAP_MS, backoffDelay } from '../../src/api/backoff-delay.js';
import { errorDetails } from '../../src/api/errors.js';
import { rateLimitWait } from '../../src/api/throttle/throttle.js';

const now = 1_800_000_000_000;
const headers = (h: Record<string, string>) => (name: string) => h[name];

describe('rateLimitWait', () => {
  it('waits until RateLimit-Reset (Unix seconds) when Remaining is 0', () => {
    expect(
      rateLimitWait(headers({ 'ratelimit-remaining': '0', 'ratelimit-reset': String(now / 1000 + 2) }), now),
    ).toEqual({
      remaining: 0,
      waitMs: 2000,
    });
  });
  it('does not wait while requests remain, or when Reset is past', () => {
    expect(
      rateLimitWait(headers({ 'ratelimit-remaining': '3', 'ratelimit-reset': String(now / 1000 + 2) }), now),
    ).toEqual({ remaining: 3 });
    expect(
      rateLimitWait(headers({ 'ratelimit-remaining': '0', 'ratelimit-reset': String(now / 1000 - 2) }), now),
    ).toEqual({ remaining: 0 });
  });
  it('with a known Limit, waits at most one token interval', () => {
    const advice = rateLimitWait(
      headers({
        'ratelimit-limit': '10',
        'ratelimit-remaining': '0',
        'ratelimit-reset': String(now / 1000 + 5),
      }),
      now,
    );
    expect(advice).toEqual({ limitRps: 10, remaining: 0, waitMs: 100 });
  });
});

describe('backoffDelay', () => {
  it('doubles from the base with full jitter, capped', () => {
    expect(backoffDelay(1, 250, () => 0.999)).toBeCloseTo(249.75);
    expect(backoffDelay(3, 250, () => 0.5)).toBe(500);
    expect(backoffDelay(30, 250, () => 1)).toBe(BACKOFF_CAP_MS);
    expect(backoffDelay(2, 250, () => 0)).toBe(0);
  });
});

describe('errorDetails', () => {
  it('joins the details of an ErrorsCollection', () => {
    expect(errorDetails({ errors: [{ details: 'a' }, { title: 'x' }, { details: 'b' }] })).toBe('a; b');
    expect(errorDetails({ message: 'Service Overloaded', errors: {} })).toBeUndefined();
    expect(errorDetails(undefined)).toBeUndefined();
  });
});
