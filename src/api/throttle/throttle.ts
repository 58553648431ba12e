/**
 * The front door of the rate control (the only file outside code imports from this folder;
 * README.md beside it has the design): the request throttle shared by every request of a
 * client. At most `concurrency` requests in flight (p-limit), starts paced by start-pacer.ts
 * at the rate of rate-controller.ts, and pauses (a 429's wait, RateLimit-Remaining 0) that
 * hold every start.
 *
 * It acts on each reply's verdict (classify-reply.ts) through `settle`: RateLimit-Limit caps
 * the rate, the highest RateLimit-Remaining + 1 is the server's burst (at most one second of
 * requests), and a 429 is weighed: with RateLimit-Remaining 0 it first halves that burst,
 * then lowers the rate; with RateLimit-Remaining above 0 it is overload (the limit was not
 * reached); one that says nothing goes to the RateController, which lowers the rate only
 * when the 429s are evidence that the rate is too high.
 */
import pLimit, { type LimitFunction } from 'p-limit';
import { RateController } from './rate-controller.js';
import type { RateLimitAdvice } from './rate-limit-wait.js';
import { type PacerLimits, StartPacer } from './start-pacer.js';

export { type RateLimitAdvice, rateLimitWait } from './rate-limit-wait.js';
export { reportingSent } from './reporting-sent.js';

export interface ThrottleClock {
  /** Milliseconds on a monotonic clock. */
  now(): number;
  sleep(ms: number): Promise<void>;
}

export const systemClock: ThrottleClock = {
  now: () => performance.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

/** What the throttle does now and why (progress display, logs, tests). */
export interface ThrottleState {
  /** Requests per second it paces at. */
  readonly rps: number;
  readonly reason: string;
  /** Starts it may make back to back (the server's announced or learned burst). */
  readonly burst: number;
  /** RateLimit-Limit, when the server announces one. */
  readonly serverRps?: number;
}

/** Why a 429 paused the run: the server was overloaded, or our rate was too high. */
export type RefusalKind = 'overload' | 'rate-limit';

/** What the throttle weighs of a reply's verdict (classify-reply.ts's ReplyVerdict is one). */
export interface SettledReply {
  readonly type: 'success' | 'retry' | 'fatal' | 'throttled';
  /** What the reply's RateLimit-* headers said; absent when no reply came. */
  readonly limits?: RateLimitAdvice;
  /** The pause a 429 asked (throttled only), ms. */
  readonly waitMs?: number;
}

export class Throttle {
  private readonly limit: LimitFunction;
  private readonly controller: RateController;
  private readonly pacer: StartPacer;
  private pausedUntil = Number.NEGATIVE_INFINITY;
  private learnedBurst = 1;
  /** Lowered by 429s with RateLimit-Remaining 0: what RateLimit-Remaining may teach from then on. */
  private burstCap = Number.POSITIVE_INFINITY;
  private burstLoweredAt = Number.NEGATIVE_INFINITY;
  private serverRps: number | undefined;
  private turn: Promise<unknown> = Promise.resolve();
  private why = 'configured';

  constructor(
    readonly rps: number,
    concurrency: number,
    private readonly onRate?: (rps: number, reason: string) => void,
    private readonly clock: ThrottleClock = systemClock,
  ) {
    this.limit = pLimit(concurrency);
    this.controller = new RateController(rps, (change) => {
      this.why = change.reason;
      this.onRate?.(change.rps, change.reason);
    });
    this.pacer = new StartPacer({ rps, burst: 1 }, clock.now());
  }

  /**
   * Runs `work` in a concurrency slot once the rate allows; it gets its start time (clock ms),
   * taken as the moment it sends (work that sends later: `runRequest`).
   */
  run<T>(work: (sentAt: number) => Promise<T>): Promise<T> {
    return this.limit(async () => work(await this.acquire(Promise.resolve())));
  }

  /**
   * As `run`, for a request that leaves some time after its start (a connection to open, a
   * busy event loop in between): `work` calls `sent()` right after its request is written.
   * The next start waits for that (or for `work` to settle, taken as the send) and is spaced
   * from it, so the spacing holds between the requests as they leave, whatever the load.
   */
  runRequest<T>(work: (startedAt: number, sent: () => void) => Promise<T>): Promise<T> {
    return this.limit(async () => {
      let release = () => {};
      const left = new Promise<void>((resolve) => {
        release = resolve;
      });
      const startedAt = await this.acquire(left);
      let reported = false;
      const sent = () => {
        if (reported) return;
        reported = true;
        this.pacer.sent(this.clock.now());
        release();
      };
      try {
        return await work(startedAt, sent);
      } finally {
        sent();
      }
    });
  }

  get activeCount(): number {
    return this.limit.activeCount;
  }

  get state(): ThrottleState {
    return { ...this.limits(this.clock.now()), reason: this.why };
  }

  /** Holds every start for `ms` (a Retry-After, or RateLimit-Remaining 0 until Reset). */
  pauseFor(ms: number): void {
    this.pausedUntil = Math.max(this.pausedUntil, this.clock.now() + ms);
  }

  /**
   * Weighs the verdict on a reply to a request started at `sentAt`: its RateLimit-* headers,
   * then the reply itself, a 429 or not. Returns, for a 429, whether it was overload or the
   * rate limit. Without a reply (a connection failure) there is nothing to weigh.
   */
  settle(verdict: SettledReply, sentAt: number): RefusalKind | undefined {
    const { limits } = verdict;
    if (limits === undefined) return undefined;
    this.observe(limits.limitRps, limits.remaining);
    if (verdict.type === 'throttled') return this.refused(limits.remaining, sentAt, verdict.waitMs);
    this.accepted(sentAt);
    return undefined;
  }

  /** The RateLimit-* headers of any reply: Limit caps the rate, Remaining teaches the burst. */
  observe(limitRps: number | undefined, remaining: number | undefined): void {
    if (limitRps !== undefined && limitRps !== this.serverRps) {
      this.serverRps = limitRps;
      this.controller.cap(limitRps, this.clock.now());
    }
    if (remaining !== undefined && remaining + 1 > this.learnedBurst) {
      const before = this.burst;
      this.learnedBurst = remaining + 1;
      if (this.burst > before) this.report(`the server's burst is at least ${this.burst}`);
    }
  }

  /** A reply other than a 429 to a request started at `sentAt`. */
  accepted(sentAt: number): void {
    this.controller.replied('ok', sentAt, this.clock.now());
  }

  /**
   * A 429 to a request started at `sentAt`, with the RateLimit-Remaining it carried and
   * the pause it asked for (ms).
   */
  refused(remaining: number | undefined, sentAt: number, waitMs?: number): RefusalKind {
    const now = this.clock.now();
    if (remaining === undefined) {
      const evidence = this.controller.replied('unexplained', sentAt, now, waitMs);
      return evidence || this.controller.lowered ? 'rate-limit' : 'overload';
    }
    if (remaining > 0) return 'overload';
    // The requests sent before the burst was lowered answer 429 together: once is enough.
    if (sentAt < this.burstLoweredAt) return 'rate-limit';
    if (this.burst > 1) {
      this.burstLoweredAt = now;
      this.burstCap = Math.max(1, Math.floor(this.burst / 2));
      this.report(`a 429 with RateLimit-Remaining 0: burst lowered to ${this.burst}`);
    } else this.controller.limited(sentAt, now);
    return 'rate-limit';
  }

  private limits(now: number): PacerLimits {
    return {
      rps: this.controller.rate(now),
      burst: this.burst,
      ...(this.serverRps === undefined ? {} : { serverRps: this.serverRps }),
    };
  }

  private get burst(): number {
    return Math.max(1, Math.min(this.learnedBurst, this.burstCap, Math.ceil(this.controller.configured)));
  }

  private report(why: string): void {
    this.why = why;
    this.onRate?.(this.controller.rate(this.clock.now()), why);
  }

  /**
   * Waits for this request's turn, then for a start the pacer allows; returns the start time.
   * The next turn comes once `left` resolves (the request sent).
   */
  private acquire(left: Promise<void>): Promise<number> {
    const mine = this.turn.then(() => this.waitForStart());
    this.turn = mine.then(
      () => left,
      () => {},
    );
    return mine;
  }

  private async waitForStart(): Promise<number> {
    for (;;) {
      const now = this.clock.now();
      if (this.pausedUntil > now) {
        await this.clock.sleep(this.pausedUntil - now);
        continue;
      }
      this.pacer.update(this.limits(now), now);
      const at = this.pacer.earliest();
      if (at > now) {
        await this.clock.sleep(at - now);
        continue;
      }
      this.pacer.take(now);
      return now;
    }
  }
}
