/** One reply the RateController weighs: a 429 (refused, with the wait it asked) or not. */
export interface WeighedReply {
  readonly refused: boolean;
  /** When it came (ms). */
  readonly at: number;
  /** The pause a 429 asked for (Retry-After, or the backoff without one), ms. */
  readonly waitMs?: number;
}

/**
 * What the replies say of a server limiting the rate with a token bucket: its rate is the
 * replies accepted between the first and the last 429 (less half a token), per second (its
 * bucket is empty at both). Such a server never asks to wait much longer than one token: 429s asking (by
 * their median) for more than WAIT_SLACK tokens' time are not from a bucket at that rate
 * (overload, whose Retry-After pauses drag the count down): 'overload'. Undefined with
 * fewer than 3 429s, or all at once.
 */
export function acceptRate(replies: readonly WeighedReply[]): number | 'overload' | undefined {
  const first = replies.findIndex((r) => r.refused);
  let last = replies.length - 1;
  while (last > first && !replies[last]!.refused) last--;
  const between = replies.slice(first, last + 1);
  const refused = between.filter((r) => r.refused);
  if (first < 0 || refused.length < 3) return undefined;
  const seconds = (replies[last]!.at - replies[first]!.at) / 1000;
  // Between two empty buckets the server let through rate x seconds, give or take the one
  // token partly refilled at either end, and the client's clock stretches or squeezes the
  // interval by its replies' delays. Half a token less leans the estimate low: too high costs
  // 429s (a few percent of requests is all a sync may draw), too low only a little time.
  const rate = seconds > 0 ? Math.max(between.length - refused.length - HALF_TOKEN, 1) / seconds : undefined;
  if (rate === undefined) return undefined;
  const waits = refused.map((r) => r.waitMs ?? 0).sort((a, b) => a - b);
  const median = waits[Math.floor(waits.length / 2)]!;
  return median > (WAIT_SLACK * 1000) / Math.max(rate, 1e-3) ? 'overload' : rate;
}

/** How much the accepted count is shaded down (see acceptRate). */
const HALF_TOKEN = 0.5;

/** A bucket's 429 asks for at most one token's time; rounding (whole seconds) gets this much slack. */
export const WAIT_SLACK = 2;
