import { describe, expect, it } from 'vitest';
import { binomialTail } from '../../src/api/throttle/binomial-tail.js';
import { Gcra } from '../../src/api/throttle/gcra.js';
import { MARGIN, RateController } from '../../src/api/throttle/rate-controller.js';
import { runVirtualApi } from '../helpers/virtual-api-run.js';

describe('binomialTail', () => {
  it('is the chance of k or more refusals of n', () => {
    expect(binomialTail(10, 0, 0.3)).toBe(1);
    expect(binomialTail(10, 11, 0.3)).toBe(0);
    expect(binomialTail(2, 1, 0.5)).toBeCloseTo(0.75);
    expect(binomialTail(20, 4, 0.05)).toBeCloseTo(0.0159, 3);
    expect(binomialTail(50, 9, 0.05)).toBeLessThan(0.001);
  });
});

describe('Gcra', () => {
  it('is a token bucket of capacity 1 + tolerance/interval', () => {
    const bucket = new Gcra(100, 200, 0); // 10/s, burst 3
    for (let i = 0; i < 3; i++) {
      expect(bucket.earliest()).toBeLessThanOrEqual(0);
      bucket.take(0);
    }
    expect(bucket.earliest()).toBe(100);
    bucket.reconfigure(50, 0, 0); // twice the rate: the 300 ms owed become 150
    expect(bucket.earliest()).toBe(150);
  });
});

describe('RateController', () => {
  it('keeps the configured rate when 5% of requests get overload 429s (Retry-After 1-2 s)', () => {
    for (const seed of [1, 2, 3]) {
      const run = runVirtualApi(20, { overloadShare: 0.05, overloadRetryAfterMs: [1000, 2000] }, 600, seed);
      const floorMs = (run.accepted / 20) * 1000 + run.retryAfterMs;
      expect(run.wallMs / floorMs).toBeLessThan(1.05);
      expect(run.controller.rate(run.wallMs)).toBe(20);
    }
  });

  it('keeps the configured rate when one request in 13 gets an overload 429', () => {
    const run = runVirtualApi(20, { overloadShare: 1 / 13, overloadRetryAfterMs: [1500, 1500] }, 600);
    const lowered = run.rates.filter(([, r]) => r < 20).length;
    expect(lowered / run.rates.length).toBeLessThan(0.1);
    expect(run.controller.rate(run.wallMs)).toBe(20);
  });

  it('settles at or below a server limiting at half the rate without saying so, with few 429s', () => {
    const run = runVirtualApi(20, { bucket: { rps: 10, burst: 2 } }, 400);
    const late = run.rates.filter(([t]) => t > run.wallMs / 2).map(([, r]) => r);
    const mean = late.reduce((a, b) => a + b, 0) / late.length;
    expect(mean).toBeLessThanOrEqual(10.2);
    expect(mean).toBeGreaterThan(9);
    expect(run.refused / (run.accepted + run.refused)).toBeLessThanOrEqual(0.05);
  });

  it('finds a limit far below the rate in a few steps', () => {
    const run = runVirtualApi(20, { bucket: { rps: 4, burst: 1 } }, 200);
    expect(run.controller.rate(run.wallMs)).toBeLessThanOrEqual(4.4);
    expect(run.refused / (run.accepted + run.refused)).toBeLessThanOrEqual(0.1);
  });

  it('restores the rate at once when 429s keep coming as often at the lowered rate (overload)', () => {
    const changes: [number, string][] = [];
    const controller = new RateController(50, (c) => changes.push([c.rps, c.reason]));
    let t = 0;
    // 429s with short Retry-Afters, most of the replies at 50/s: taken for a limit near 16/s...
    for (const refused of [true, false, true, true, true]) {
      t += 20;
      controller.replied(refused ? 'unexplained' : 'ok', t - 20, t, refused ? 10 : undefined);
    }
    expect(controller.rate(t)).toBeLessThan(20);
    expect(changes[0]![1]).toMatch(/3 of the last 4 replies were 429s/);
    // ...but at the lower rate they keep coming as often: overload, the rate is back at once.
    const lowered = t;
    for (let i = 0; controller.rate(t) < 50; i++) {
      t += 80;
      controller.replied(i % 5 === 4 ? 'ok' : 'unexplained', t - 80, t, 10);
    }
    expect(t - lowered).toBeLessThanOrEqual(1000);
    expect(changes.at(-1)![1]).toMatch(/did not follow the rate.*overload/);
  });

  it('after a limit that went away, climbs back to the configured rate within 10 s', () => {
    const changes: string[] = [];
    const controller = new RateController(50, (c) => changes.push(c.reason));
    let t = 0;
    for (const refused of [true, false, true, true, true]) {
      t += 20;
      controller.replied(refused ? 'unexplained' : 'ok', t - 20, t, 10);
    }
    const lowered = t;
    while (controller.rate(t) < 50) {
      t += 20;
      controller.replied('ok', t - 20, t);
    }
    expect(t - lowered).toBeLessThanOrEqual(10_000);
    expect(changes.at(-1)).toBe('recovered: back at 50/s');
  });

  it('takes a 429 with RateLimit-Remaining 0 as the server saying the rate is too high', () => {
    const controller = new RateController(10);
    controller.limited(0, 0);
    expect(controller.rate(0)).toBeCloseTo(10 * 0.9 * MARGIN);
    // The refusals of requests sent before the decision tell of the old rate: not counted again.
    expect(controller.limited(-1, 1)).toBe(false);
  });

  it('adopts a lower RateLimit-Limit as its ceiling, and no higher one', () => {
    const controller = new RateController(10);
    controller.cap(4, 0);
    expect(controller.rate(0)).toBe(4);
    controller.cap(8, 0);
    expect(controller.rate(0)).toBe(4);
    expect(controller.reason).toContain('RateLimit-Limit');
  });
});
