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
 * replies accepted between the first and the last 429, per second (its bucket is empty at
 * both). Such a server never asks to wait much longer than one token: 429s asking (by
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
  const rate = seconds > 0 ? (between.length - refused.length) / seconds : undefined;
  if (rate === undefined) return undefined;
  const waits = refused.map((r) => r.waitMs ?? 0).sort((a, b) => a - b);
  const median = waits[Math.floor(waits.length / 2)]!;
  return median > (WAIT_SLACK * 1000) / Math.max(rate, 1e-3) ? 'overload' : rate;
}

/** A bucket's 429 asks for at most one token's time; rounding (whole seconds) gets this much slack. */
export const WAIT_SLACK = 2;
