import type { ThrottleClock } from '../../src/api/throttle/throttle.js';

/**
 * A ThrottleClock on virtual time: a sleep moves the time on by what was asked plus
 * `lateMs` (a busy machine's late timer) and resolves at once, so a test of pacing runs
 * in microseconds and never depends on the machine's speed.
 */
export class VirtualClock implements ThrottleClock {
  time = 0;

  constructor(public lateMs = 0) {}

  now(): number {
    return this.time;
  }

  sleep(ms: number): Promise<void> {
    this.time += Math.max(0, ms) + this.lateMs;
    return Promise.resolve();
  }
}
