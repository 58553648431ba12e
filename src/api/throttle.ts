/**
 * The request throttle shared by every request of a client: at most `concurrency` in
 * flight (p-limit) and requests spaced evenly at `rps` (no bursts above the rate, so a
 * server limiting at the same rate sees almost no 429s). A 429 pauses every request until
 * its Retry-After and halves the rate; the rate recovers by 10% every RECOVER_AFTER
 * successes, never above the configured `rps`. RateLimit-Remaining: 0 pauses until
 * RateLimit-Reset.
 */
import pLimit, { type LimitFunction } from 'p-limit';

/** Successes at the lowered rate before it is raised again. */
export const RECOVER_AFTER = 50;
/** Never slower than one request every 10 s, however many 429s arrive. */
const MIN_RPS = 0.1;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export class Throttle {
  private readonly limit: LimitFunction;
  private nextSlot = 0;
  /** When the last request started (Date.now()): starts are never closer than one interval. */
  private lastStart = Number.NEGATIVE_INFINITY;
  private pausedUntil = 0;
  private successes = 0;
  /** When the rate was last halved (see pauseFor). */
  private loweredAt = Number.NEGATIVE_INFINITY;
  currentRps: number;
  /** The configured rate, lowered to the server's RateLimit-Limit when one is announced. */
  private ceiling: number;

  constructor(
    readonly rps: number,
    concurrency: number,
    private readonly onRate?: (rps: number, reason: string) => void,
  ) {
    this.limit = pLimit(concurrency);
    this.currentRps = rps;
    this.ceiling = rps;
  }

  /** Runs `work` in a concurrency slot once the rate allows. */
  run<T>(work: () => Promise<T>): Promise<T> {
    return this.limit(async () => {
      await this.acquire();
      return work();
    });
  }

  get activeCount(): number {
    return this.limit.activeCount;
  }

  /**
   * Pauses every request for `ms` (a 429's Retry-After, or RateLimit-Remaining 0) and, for a
   * 429, halves the rate. `sentAt` is when the 429'd request was sent: the concurrent requests
   * sent before the last halving answer 429 together, and halve the rate only once.
   */
  pauseFor(ms: number, lowerRate: boolean, sentAt: number = Date.now()): void {
    this.pausedUntil = Math.max(this.pausedUntil, Date.now() + ms);
    if (lowerRate && sentAt >= this.loweredAt) {
      this.loweredAt = Date.now();
      this.successes = 0;
      const lowered = Math.max(MIN_RPS, this.currentRps / 2);
      if (lowered !== this.currentRps) {
        this.currentRps = lowered;
        this.onRate?.(lowered, '429 received');
      }
    }
  }

  /** A server-announced ceiling (RateLimit-Limit): the rate never goes above it from now on. */
  capRate(rps: number): void {
    if (rps >= this.ceiling) return;
    this.ceiling = rps;
    if (this.currentRps > rps) {
      this.currentRps = rps;
      this.onRate?.(rps, 'RateLimit-Limit');
    }
  }

  succeeded(): void {
    if (this.currentRps >= this.ceiling || ++this.successes < RECOVER_AFTER) return;
    this.successes = 0;
    this.currentRps = Math.min(this.ceiling, this.currentRps * 1.1);
    this.onRate?.(this.currentRps, 'recovering');
  }

  /** How long until one interval has passed since the last start (<= 0: now). */
  private untilSpaced(): number {
    return this.lastStart + 1000 / this.currentRps - Date.now();
  }

  private async acquire(): Promise<void> {
    for (;;) {
      const now = Date.now();
      if (this.pausedUntil > now) {
        await sleep(this.pausedUntil - now);
        continue;
      }
      const slot = Math.max(now, this.nextSlot);
      this.nextSlot = slot + 1000 / this.currentRps;
      if (slot > now) await sleep(slot - now);
      // A timer that fired late must not bring the next start within one interval of it: a
      // server with a burst of 1 would answer 429. The lateness shifts the later starts.
      for (let wait = this.untilSpaced(); wait > 0; wait = this.untilSpaced()) await sleep(wait);
      if (this.pausedUntil <= Date.now()) {
        this.lastStart = Date.now();
        return;
      }
    }
  }
}
