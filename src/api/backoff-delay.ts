/** Backoff ceiling: one step never waits longer than this, however many failures. */
export const BACKOFF_CAP_MS = 30_000;

/**
 * Exponential backoff with full jitter (a random wait in [0, min(cap, base * 2^attempt)))
 * so the retries of concurrent requests spread out instead of hitting the server together.
 * `attempt` is 1 for the first retry.
 */
export function backoffDelay(attempt: number, baseMs: number, random: () => number = Math.random): number {
  return random() * Math.min(BACKOFF_CAP_MS, baseMs * 2 ** (attempt - 1));
}
