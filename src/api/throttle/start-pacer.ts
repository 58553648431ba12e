/**
 * When the next request may start: two token buckets (gcra.ts) that every start must
 * satisfy.
 *
 * - Our own rate (`rps`, the current throttle rate). Its burst lets a start that a busy
 *   machine woke late be made up for by the next one, so late timers do not cost rate.
 * - The server's bucket as far as we know it: its announced rate (RateLimit-Limit) or else
 *   our own, and its burst as learned (RateLimit-Remaining + 1), keeping one token (or,
 *   with burst 1, JITTER_ALLOWANCE_MS) in hand so requests bunched on the way still find
 *   a token. With nothing known, burst 1: starts exactly one interval apart, which a
 *   strict burst-1 bucket just above `rps` accepts.
 *
 * The spacing holds between the requests as they actually leave: `take` when a start is
 * allowed, then `sent` when its request is written, before the next start is considered (a
 * lower bound of the next request's departure spaced from an upper bound of this one's).
 *
 * Pure: the caller passes the time; it sleeps until `earliest()`.
 */
import { Gcra } from './gcra.js';

/** Requests may reach the server this much closer together than they left. */
export const JITTER_ALLOWANCE_MS = 5;

export interface PacerLimits {
  /** Our rate now (requests/s). */
  readonly rps: number;
  /** The server's announced rate, when it announces one. */
  readonly serverRps?: number;
  /** The server's burst as announced or learned; 1 when unknown. */
  readonly burst: number;
}

export class StartPacer {
  private readonly own: Gcra;
  private readonly server: Gcra;

  constructor(
    private limits: PacerLimits,
    now: number,
  ) {
    this.own = new Gcra(...ownBucket(limits), now);
    this.server = new Gcra(...serverBucket(limits), now);
  }

  update(limits: PacerLimits, now: number): void {
    const l = this.limits;
    if (l.rps === limits.rps && l.serverRps === limits.serverRps && l.burst === limits.burst) return;
    this.limits = limits;
    this.own.reconfigure(...ownBucket(limits), now);
    this.server.reconfigure(...serverBucket(limits), now);
  }

  /** The earliest time (ms) the next start may happen. */
  earliest(): number {
    return Math.max(this.own.earliest(), this.server.earliest());
  }

  take(now: number): void {
    this.own.take(now);
    this.server.take(now);
  }

  /**
   * The start taken last actually left at `at` (its request written, a connection opened
   * first, a busy loop in between): the next start is spaced from then, not from the take.
   */
  sent(at: number): void {
    this.own.sent(at);
    this.server.sent(at);
  }
}

/** Our rate, with the server's burst (at least one interval when its rate leaves room). */
function ownBucket(l: PacerLimits): [number, number] {
  const interval = 1000 / l.rps;
  const roomy = l.serverRps !== undefined && l.serverRps > l.rps;
  return [interval, Math.max(l.burst - 1, roomy ? 1 : 0) * interval];
}

/**
 * The server's bucket, less one token (with a burst) or JITTER_ALLOWANCE_MS (burst 1, where
 * the gap between starts may shrink from our interval towards the server's only as far as
 * that allowance leaves room: with nothing known it stays exactly our interval).
 */
function serverBucket(l: PacerLimits): [number, number] {
  const interval = 1000 / (l.serverRps ?? l.rps);
  // With a burst, one token stays in hand: a loaded machine bunches requests by more than 5 ms.
  if (l.burst > 1) return [interval, Math.max(0, (l.burst - 2) * interval)];
  const room = 1000 / l.rps - interval;
  return [interval, -Math.min(JITTER_ALLOWANCE_MS, Math.max(0, room))];
}
