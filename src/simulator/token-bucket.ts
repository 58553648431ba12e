/** The simulator's rate limit: a token bucket refilled at `rps`, holding at most `burst`. */
export class TokenBucket {
  private tokens: number;
  private last: number;

  constructor(
    readonly rps: number,
    readonly burst: number,
    now = Date.now(),
  ) {
    this.tokens = burst;
    this.last = now;
  }

  /** Takes a token if one is there; else how many ms until one is. */
  take(now = Date.now()): { ok: true; remaining: number } | { ok: false; waitMs: number } {
    this.refill(now);
    if (this.tokens >= 1) {
      this.tokens -= 1;
      return { ok: true, remaining: Math.floor(this.tokens) };
    }
    return { ok: false, waitMs: Math.ceil(((1 - this.tokens) / this.rps) * 1000) };
  }

  /** Whole tokens left, without taking one (for the RateLimit-Remaining header of unmetered answers). */
  remaining(now = Date.now()): number {
    this.refill(now);
    return Math.floor(this.tokens);
  }

  private refill(now: number): void {
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.last) / 1000) * this.rps);
    this.last = now;
  }

  /** Unix seconds at which the bucket is full again (the RateLimit-Reset header). */
  resetAt(now = Date.now()): number {
    return Math.ceil((now + ((this.burst - this.tokens) / this.rps) * 1000) / 1000);
  }
}
