/**
 * The throttle's rate: the configured `rps`, lowered only on evidence that the rate itself
 * is too high (a 429 alone is none: the API also answers 429 when it is overloaded), and
 * recovered over seconds of time (not counted successes). Evidence is the server saying so
 * (RateLimit-Limit as a ceiling, `limited`), more 429s that said nothing among the last
 * WINDOW replies than the background share of overload explains (a binomial test), and,
 * once lowered, 429s above the estimated server rate clearly more frequent than below it.
 * On evidence the rate drops to just below the server's estimated rate (accept-rate.ts), at
 * most divided by MAX_CUT at once, then climbs back along a cubic curve of time; a decrease
 * on silent 429s is a trial (overload-trial.ts) that restores the rate if they were overload.
 * The reasons for each step and constant: README.md beside this file, "The rate".
 *
 * Pure: times are passed in (ms), changes are reported through `onChange`.
 */
import { acceptRate, type WeighedReply } from './accept-rate.js';
import { binomialTail } from './binomial-tail.js';
import { OverloadTrial } from './overload-trial.js';

/** Never slower than one request every 10 s, however much evidence arrives. */
export const MIN_RPS = 0.1;
/** The replies weighed by the first test: enough to tell 5% of 429s from 20%. */
export const WINDOW = 50;
/** Share of 429s taken as overload (rate-independent) until a run shows more. */
export const BACKGROUND_PRIOR = 0.05;
/** Overload is not learned beyond this share: more 429s than that still call for a test. */
const MAX_BACKGROUND = 0.3;
/** A chance this small of seeing that many 429s at the background share is evidence. */
export const EVIDENCE_ALPHA = 0.001;
/** Above the estimate, the test against the share seen below it (the rates are close). */
export const PROBE_ALPHA = 0.05;
/**
 * One decrease divides the rate by at most this (then MARGIN): an estimate made of 429s
 * of overload can be far too low, and the trial that finds it out runs at the lower rate.
 */
export const MAX_CUT = 10;
/** After a decrease the rate goes to this share of the server's estimated rate. */
export const MARGIN = 0.95;
/**
 * The cubic's constant, per unit of the plateau: +10% of it 2 s after reaching it. Each
 * confirmation that the 429s follow the rate (a trial ending 'limit', a probe refused)
 * makes the climbs that follow 1.5 times as slow (the constant SLOWER times smaller).
 */
const GROWTH = 0.1 / 8;
const SLOWER = 1.5 ** 3;
/** The background share counts as this many replies below the estimate. */
const PRIOR_WEIGHT = 10;

/** ok: any reply but a 429; unexplained: a 429 without RateLimit-Remaining. */
export type ReplyOutcome = 'ok' | 'unexplained';

export interface RateChange {
  readonly rps: number;
  readonly reason: string;
}

interface Curve {
  readonly at: number;
  /** The server's rate as estimated: 429s above it are weighed against those below it. */
  readonly estimate: number;
  /** Where the climb flattens: the estimate, or the old rate / MAX_CUT when that is higher. */
  readonly plateau: number;
  readonly k: number;
  readonly c: number;
}

interface Counts {
  n: number;
  refused: number;
}

export class RateController {
  private ceiling: number;
  private curve: Curve | undefined;
  /** Replies since the last decision, the newest WINDOW. */
  private window: WeighedReply[] = [];
  private below: Counts = { n: 0, refused: 0 };
  private above: Counts = { n: 0, refused: 0 };
  private decidedAt = Number.NEGATIVE_INFINITY;
  private background = BACKGROUND_PRIOR;
  private confirmations = 0;
  private trial: { test: OverloadTrial; before: Curve | undefined } | undefined;
  private why = 'configured';

  constructor(
    readonly configured: number,
    private readonly onChange?: (change: RateChange) => void,
  ) {
    this.ceiling = configured;
  }

  /** Why the rate is what it is, in words. */
  get reason(): string {
    return this.why;
  }

  /** True while the rate is below its ceiling because of evidence. */
  get lowered(): boolean {
    return this.curve !== undefined;
  }

  /** The rate (requests/s) at `now`; reaching the ceiling again is reported as 'recovered'. */
  rate(now: number): number {
    const curve = this.curve;
    if (!curve) return this.ceiling;
    // A trial holds the lowered rate; the climb starts when it ends.
    const t = this.trial ? 0 : (now - curve.at) / 1000;
    const r = curve.plateau + curve.c * (t - curve.k) ** 3;
    if (r < this.ceiling) return Math.max(MIN_RPS, r);
    this.recovered(now);
    return this.ceiling;
  }

  /** A server-announced ceiling (RateLimit-Limit): never above it from now on. */
  cap(rps: number, now: number): void {
    if (rps >= this.ceiling) return;
    const before = this.rate(now);
    this.ceiling = Math.max(MIN_RPS, rps);
    if (this.rate(now) < before) this.change(now, `the server announces RateLimit-Limit ${rps}/s`);
  }

  /**
   * A reply to a request sent at `sentAt`. Replies to requests sent before the last
   * decision are not weighed: they tell of the old rate. Returns true when this 429 was
   * taken as evidence that the rate is too high (and the rate was lowered).
   */
  replied(outcome: ReplyOutcome, sentAt: number, now: number, waitMs?: number): boolean {
    if (sentAt < this.decidedAt) return false;
    const refused = outcome === 'unexplained';
    this.window.push({ refused, at: now, ...(waitMs === undefined ? {} : { waitMs }) });
    if (this.window.length > WINDOW) this.window.shift();
    const rate = this.rate(now);
    const curve = this.curve;
    const band = curve && rate > curve.estimate * 1.001 ? this.above : this.below;
    band.n++;
    if (refused) band.refused++;
    // While a trial runs, it alone weighs the replies.
    if (curve && this.trial) {
      this.weighTrial(refused, curve, rate, now);
      return false;
    }
    if (!refused) return false;
    if (curve && band === this.above) return this.probe(curve, rate, now);
    const n = this.window.length;
    const k = this.window.filter((r) => r.refused).length;
    if (binomialTail(n, k, this.background) >= EVIDENCE_ALPHA) return false;
    // Too many 429s, but waits no bucket at the rate they let through would ask: overload.
    const estimate = acceptRate(this.window);
    if (estimate === 'overload') return false;
    const why = `${k} of the last ${n} replies were 429s`;
    this.decide(now, rate, estimate ?? rate * (1 - k / n), why, k / n);
    return true;
  }

  /** A 429 with RateLimit-Remaining 0 when the burst is already 1: the server says the rate is too high. */
  limited(sentAt: number, now: number): boolean {
    if (sentAt < this.decidedAt) return false;
    const rate = this.rate(now);
    this.decide(now, rate, rate * 0.9, 'a 429 with RateLimit-Remaining 0');
    return true;
  }

  /** Probing above the estimate: 429s here clearly more frequent than below it are evidence. */
  private probe(curve: Curve, rate: number, now: number): boolean {
    // The share below, starting from the background share as PRIOR_WEIGHT replies.
    const belowShare = (this.below.refused + this.background * PRIOR_WEIGHT) / (this.below.n + PRIOR_WEIGHT);
    if (this.above.refused < 2 || binomialTail(this.above.n, this.above.refused, belowShare) >= PROBE_ALPHA)
      return false;
    if (curve.k > 0) this.confirmations++;
    const why = `429s follow the rate (${this.above.refused} of ${this.above.n} above ${fmt(curve.estimate)}/s, ${this.below.refused} of ${this.below.n} below)`;
    const share = this.above.refused / this.above.n;
    // 429s below the estimate too: it was too high, and the replies since tell better.
    const measured = this.below.refused > 0 ? acceptRate(this.window) : undefined;
    this.decide(
      now,
      rate,
      Math.min(curve.estimate, typeof measured === 'number' ? measured : rate),
      why,
      share,
    );
    return true;
  }

  /** Weighs a reply in the running trial: a verdict starts the climb, or restores the rate. */
  private weighTrial(refused: boolean, curve: Curve, rate: number, now: number): void {
    const trial = this.trial!;
    const limitShare = this.background + (1 - this.background) * Math.max(0, 1 - curve.estimate / rate);
    const verdict = trial.test.add(refused, limitShare);
    if (verdict === undefined) return;
    this.trial = undefined;
    if (verdict === 'limit') {
      this.confirmations++;
      this.curve = { ...curve, at: now, c: curve.c / SLOWER };
      return;
    }
    const { n, refused: k } = trial.test;
    this.background = Math.min(MAX_BACKGROUND, Math.max(this.background, k / n));
    this.curve = trial.before;
    this.reset(now);
    this.change(
      now,
      `429s did not follow the rate (${k} of ${n} at ${fmt(rate)}/s): overload, rate restored`,
    );
  }

  /**
   * Lowers the rate to just below `estimated`, the server's rate as estimated, but not
   * much below `rate` (the rate now) / MAX_CUT in one step. With `share` (the share of 429s
   * that said nothing which set it off), the decrease is a trial.
   */
  private decide(now: number, rate: number, estimated: number, why: string, share?: number): void {
    const before = this.curve;
    const estimate = Math.min(rate, estimated);
    const plateau = Math.max(estimate, rate / MAX_CUT);
    const next = Math.max(MIN_RPS, MARGIN * plateau);
    const c = (plateau * GROWTH) / SLOWER ** this.confirmations;
    this.curve = { at: now, estimate, plateau, c, k: Math.cbrt((plateau - next) / c) };
    this.trial = share === undefined ? undefined : { test: new OverloadTrial(share), before };
    this.reset(now);
    this.change(now, `${why}: the server takes about ${fmt(estimate)}/s`);
  }

  private recovered(now: number): void {
    // The limit went away: the next one is a new one, climbed from as fast as the first.
    this.confirmations = 0;
    this.curve = undefined;
    this.trial = undefined;
    this.reset(now);
    this.change(now, `recovered: back at ${fmt(this.ceiling)}/s`);
  }

  private reset(now: number): void {
    this.window = [];
    this.below = { n: 0, refused: 0 };
    this.above = { n: 0, refused: 0 };
    this.decidedAt = now;
  }

  private change(now: number, why: string): void {
    this.why = why;
    this.onChange?.({ rps: this.rate(now), reason: why });
  }
}

const fmt = (rps: number) => String(Math.round(rps * 10) / 10);
