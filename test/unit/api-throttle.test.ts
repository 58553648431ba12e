import { describe, expect, it } from 'vitest';
import { RECOVER_AFTER, Throttle } from '../../src/api/throttle.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('Throttle', () => {
  it('never runs more than `concurrency` tasks at once', async () => {
    const throttle = new Throttle(10_000, 3);
    let active = 0;
    let peak = 0;
    await Promise.all(
      Array.from({ length: 20 }, () =>
        throttle.run(async () => {
          active++;
          peak = Math.max(peak, active);
          await sleep(5);
          active--;
        }),
      ),
    );
    expect(peak).toBe(3);
  });

  it('spaces starts at 1/rps without bursting', async () => {
    const throttle = new Throttle(50, 10); // one start every 20 ms
    const starts: number[] = [];
    await Promise.all(
      Array.from({ length: 8 }, () => throttle.run(async () => void starts.push(Date.now()))),
    );
    // Start i is due 20 ms x i after the first: never earlier (timers may fire a millisecond
    // or two early), whereas a burst would start them together. A start delayed by a busy
    // machine is followed by one on schedule, so the gaps between neighbours are not checked.
    for (const [i, t] of starts.entries()) expect(t - starts[0]!).toBeGreaterThanOrEqual(i * 20 - 3);
  });

  it('holds every request during a pause', async () => {
    const throttle = new Throttle(1000, 4);
    const pausedAt = Date.now();
    throttle.pauseFor(60, false);
    const starts = await Promise.all([1, 2, 3].map(() => throttle.run(async () => Date.now())));
    for (const t of starts) expect(t - pausedAt).toBeGreaterThanOrEqual(58);
  });

  it('halves the rate on a 429 and recovers by 10% per RECOVER_AFTER successes, up to rps', () => {
    const rates: [number, string][] = [];
    const throttle = new Throttle(10, 1, (rps, reason) => rates.push([rps, reason]));
    throttle.pauseFor(0, true);
    expect(throttle.currentRps).toBe(5);
    for (let i = 0; i < RECOVER_AFTER - 1; i++) throttle.succeeded();
    expect(throttle.currentRps).toBe(5);
    throttle.succeeded();
    expect(throttle.currentRps).toBeCloseTo(5.5);
    for (let i = 0; i < RECOVER_AFTER * 20; i++) throttle.succeeded();
    expect(throttle.currentRps).toBe(10);
    expect(rates[0]).toEqual([5, '429 received']);
    expect(rates.at(-1)?.[0]).toBe(10);
  });
});
