/**
 * One token bucket kept as a schedule (the Generic Cell Rate Algorithm): `tat` is the time
 * at which the bucket would be full again. A start at `now` conforms when
 * now >= tat - tolerance; it then moves `tat` one interval on. With tolerance
 * (burst - 1) x interval this is exactly a token bucket of rate 1000/interval and capacity
 * `burst`; a negative tolerance demands more than one interval between starts.
 */
export class Gcra {
  private tat: number;

  constructor(
    private intervalMs: number,
    private toleranceMs: number,
    now: number,
  ) {
    this.tat = now;
  }

  /** The earliest time (ms) a start conforms. */
  earliest(): number {
    return this.tat - this.toleranceMs;
  }

  take(now: number): void {
    this.tat = Math.max(this.tat, now) + this.intervalMs;
  }

  /**
   * The start taken last left at `at`, later than it was taken: the schedule moves on from
   * there, as if taken at `at` (no start was taken in between).
   */
  sent(at: number): void {
    this.tat = Math.max(this.tat, at + this.intervalMs);
  }

  /** A new rate or burst: the starts already owed are rescaled to the new interval. */
  reconfigure(intervalMs: number, toleranceMs: number, now: number): void {
    if (this.tat > now) this.tat = now + ((this.tat - now) * intervalMs) / this.intervalMs;
    this.intervalMs = intervalMs;
    this.toleranceMs = toleranceMs;
  }
}
