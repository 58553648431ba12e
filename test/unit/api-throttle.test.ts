import { describe, expect, it } from 'vitest';
import { JITTER_ALLOWANCE_MS } from '../../src/api/throttle/start-pacer.js';
import { Throttle } from '../../src/api/throttle/throttle.js';
import { VirtualClock } from '../helpers/virtual-clock.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Start times of `n` requests through `throttle`, one after another as a sync's queue makes them. */
async function starts(throttle: Throttle, n: number): Promise<number[]> {
  const times: number[] = [];
  await Promise.all(Array.from({ length: n }, () => throttle.run(async (at) => void times.push(at))));
  return times;
}

/** The lowest token count a bucket of `rps` and `burst`, full at the first start, reaches over `times`. */
function lowestTokens(times: readonly number[], rps: number, burst: number): number {
  let tokens = burst;
  let lowest = burst;
  for (const [i, t] of times.entries()) {
    if (i > 0) tokens = Math.min(burst, tokens + ((t - times[i - 1]!) / 1000) * rps);
    tokens -= 1;
    lowest = Math.min(lowest, tokens);
  }
  return lowest;
}

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
    throttle.pauseFor(60);
    const starts = await Promise.all([1, 2, 3].map(() => throttle.run(async () => Date.now())));
    for (const t of starts) expect(t - pausedAt).toBeGreaterThanOrEqual(58);
  });

  it('knowing nothing of the server, keeps one interval between starts however late its timers', async () => {
    const clock = new VirtualClock(7);
    const times = await starts(new Throttle(20, 4, undefined, clock), 40);
    const gaps = times.slice(1).map((t, i) => t - times[i]!);
    // A strict burst-1 bucket at 20/s (and so any just above) accepts every start.
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(50);
    expect(lowestTokens(times, 20, 1)).toBeGreaterThanOrEqual(-1e-9);
  });

  it('makes up for late timers within the burst the server showed, never beyond it', async () => {
    const clock = new VirtualClock(7);
    const throttle = new Throttle(20, 4, undefined, clock);
    throttle.observe(20, 4); // RateLimit-Limit 20, RateLimit-Remaining 4: a burst of 5
    expect(throttle.state).toMatchObject({ rps: 20, burst: 5, serverRps: 20 });
    const times = await starts(throttle, 200);
    // On time on average (a start every 50 ms) although every timer fired 7 ms late...
    expect(times.at(-1)! - times[0]!).toBeLessThanOrEqual(199 * 50);
    // ...and the server's bucket (20/s, burst 5) never ran dry.
    expect(lowestTokens(times, 20, 5)).toBeGreaterThanOrEqual(0);
  });

  it('with a burst-1 server announced faster than rps, makes up late timers keeping the jitter allowance', async () => {
    const clock = new VirtualClock(4);
    const throttle = new Throttle(20, 4, undefined, clock);
    throttle.observe(25, 0); // a strict bucket: 25/s, nothing to spare
    const times = await starts(throttle, 200);
    const gaps = times.slice(1).map((t, i) => t - times[i]!);
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(1000 / 25 + JITTER_ALLOWANCE_MS - 1e-9);
    expect(times.at(-1)! - times[0]!).toBeLessThanOrEqual(199 * 50);
  });

  it('spaces a request from when the one before left (a connection opened, a busy loop), not from its start', async () => {
    const clock = new VirtualClock(3);
    const throttle = new Throttle(20, 4, undefined, clock);
    throttle.observe(25, 0); // a strict bucket: 25/s, nothing to spare
    const starts: number[] = [];
    const sends: number[] = [];
    await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        throttle.runRequest(async (at, sent) => {
          starts.push(at);
          clock.time += i % 3 === 0 ? 30 : 0.5; // written that long after its start
          sends.push(clock.now());
          sent();
        }),
      ),
    );
    // The bucket sees the sends: each one more than its interval (plus the allowance) after
    // the one before, however late the one before left.
    const gaps = sends.slice(1).map((t, i) => t - sends[i]!);
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(1000 / 25 + JITTER_ALLOWANCE_MS - 1e-9);
    for (const [i, t] of starts.entries()) if (i > 0) expect(t).toBeGreaterThanOrEqual(sends[i - 1]!);
  });

  it('holds the next start until the request before is written, or its work settled', async () => {
    const clock = new VirtualClock();
    const throttle = new Throttle(1000, 2, undefined, clock);
    let open = () => {};
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    const starts: number[] = [];
    const first = throttle.runRequest(async (at) => {
      starts.push(at);
      await gate; // never says it was sent: its end stands for the send
    });
    const second = throttle.runRequest(async (at) => void starts.push(at));
    await sleep(20);
    expect(starts).toHaveLength(1);
    clock.time += 100;
    open();
    await Promise.all([first, second]);
    expect(starts[1]).toBeGreaterThanOrEqual(101);
  });

  it('holds the rate through a lone 429 (overload), halves the burst on a RateLimit-Remaining 0 429', async () => {
    const clock = new VirtualClock();
    const rates: [number, string][] = [];
    const throttle = new Throttle(10, 1, (rps, reason) => rates.push([rps, reason]), clock);
    expect(throttle.refused(undefined, clock.now())).toBe('overload');
    expect(throttle.refused(3, clock.now())).toBe('overload');
    expect(throttle.state.rps).toBe(10);
    throttle.observe(undefined, 7);
    expect(throttle.state.burst).toBe(8);
    expect(throttle.refused(0, clock.now())).toBe('rate-limit');
    expect(throttle.state).toMatchObject({ rps: 10, burst: 4 });
    // A request sent before that answers 429 too: the same burst, not halved again.
    throttle.refused(0, clock.now() - 1);
    expect(throttle.state.burst).toBe(4);
    throttle.observe(undefined, 7); // the halved burst is not learned back
    expect(throttle.state.burst).toBe(4);
    for (const burst of [2, 1]) {
      throttle.refused(0, clock.now());
      expect(throttle.state.burst).toBe(burst);
    }
    // Burst 1 already: the rate itself comes down.
    throttle.refused(0, clock.now());
    expect(throttle.state.rps).toBeLessThan(10);
    expect(rates.at(-1)?.[1]).toContain('RateLimit-Remaining 0');
  });
});
