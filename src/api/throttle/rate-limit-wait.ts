/** What the RateLimit-* response headers ask of the client. */
export interface RateLimitAdvice {
  /** RateLimit-Limit: the server's rate (requests per second), when announced. */
  readonly limitRps?: number;
  /** RateLimit-Remaining, when sent: requests the server's bucket holds now. */
  readonly remaining?: number;
  /** How long every request should pause, when RateLimit-Remaining is 0; else undefined. */
  readonly waitMs?: number;
}

/**
 * Reads `RateLimit-Limit`, `RateLimit-Remaining`, `RateLimit-Reset` (api-profile.md; Reset is
 * a Unix timestamp in seconds, small values are taken as delta-seconds). Remaining 0 means
 * "wait until Reset". Reset names when the server's bucket is FULL again, and the simulator
 * rounds it up to a whole second; one token suffices for the next request, so when the
 * Limit is known the wait is at most one token interval (1/Limit s), not a whole second.
 */
export function rateLimitWait(header: (name: string) => string | undefined, now: number): RateLimitAdvice {
  const limit = Number(header('ratelimit-limit'));
  const limitRps = Number.isFinite(limit) && limit > 0 ? limit : undefined;
  const remainingText = header('ratelimit-remaining')?.trim();
  const remaining = remainingText && /^\d+$/.test(remainingText) ? Number(remainingText) : undefined;
  const known = { ...(limitRps ? { limitRps } : {}), ...(remaining === undefined ? {} : { remaining }) };
  if (remaining !== 0) return known;
  const reset = Number(header('ratelimit-reset'));
  let waitMs = Number.isFinite(reset) ? (reset > 1e9 ? reset * 1000 - now : reset * 1000) : undefined;
  if (limitRps !== undefined) waitMs = Math.min(waitMs ?? Number.POSITIVE_INFINITY, 1000 / limitRps);
  if (waitMs === undefined || !(waitMs > 0)) return known;
  return { ...known, waitMs };
}
