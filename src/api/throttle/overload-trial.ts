/**
 * After the rate was lowered on the strength of 429s that said nothing: did lowering it
 * help? Two hypotheses weigh each later reply (a sequential probability ratio test):
 * - overload: 429s keep coming at the share that set off the decrease, whatever the rate;
 * - limit: the server's rate is the estimate, so at `rate` a share
 *   background + (1 - background) x max(0, 1 - estimate / rate) is refused.
 * The test ends when one hypothesis is ODDS times as likely as the other, or after
 * MAX_TRIAL replies.
 */

/** Odds that end the trial (100 to 1: about 1% of trials end on the wrong side). */
export const ODDS = 100;
const BOUND = Math.log(ODDS);
/**
 * Replies after which an undecided trial ends as 'limit' (both hypotheses expect about
 * the same share): the lowered rate then climbs back, and the probes go on.
 */
export const MAX_TRIAL = 40;

export type TrialVerdict = 'overload' | 'limit';

export class OverloadTrial {
  private llr = 0;
  n = 0;
  refused = 0;

  /** `share`: the share of 429s that set off the decrease. */
  constructor(readonly share: number) {}

  /** Weighs one reply; `limitShare` is what the limit hypothesis expects at the rate now. */
  add(refused: boolean, limitShare: number): TrialVerdict | undefined {
    const over = clamp(this.share);
    const limit = clamp(limitShare);
    this.n++;
    if (refused) this.refused++;
    this.llr += refused ? Math.log(over / limit) : Math.log((1 - over) / (1 - limit));
    if (this.llr >= BOUND) return 'overload';
    if (this.llr <= -BOUND || this.n >= MAX_TRIAL) return 'limit';
    return undefined;
  }
}

const clamp = (p: number) => Math.min(0.99, Math.max(0.01, p));
