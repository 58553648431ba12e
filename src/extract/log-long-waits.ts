/**
 * A pause the API asked for (a 429's Retry-After, or RateLimit-Remaining 0 until
 * RateLimit-Reset), logged as it starts when it is long: a run that goes quiet for minutes
 * says why, for how long, and that it can be stopped. The requests refused together share
 * one pause: it is logged once, not once per request.
 */
import type { ApiEvent } from '../api/types.js';
import { formatDuration } from '../util/format-duration.js';
import type { Logger } from '../util/logger.js';

/** Shorter pauses (an overload's second or two) pass unlogged: they are counted in the summary. */
export const LOG_WAITS_FROM_MS = 5_000;
/** A pause ending within this of the one last logged is that same pause. */
const SAME_PAUSE_MS = 1_000;

export function logLongWaits(logger: Logger, now: () => number = Date.now): (event: ApiEvent) => void {
  let loggedUntil = Number.NEGATIVE_INFINITY;
  return (event) => {
    if (event.type !== 'throttled' && event.type !== 'paused') return;
    if (event.waitMs < LOG_WAITS_FROM_MS) return;
    const until = now() + event.waitMs;
    if (until <= loggedUntil + SAME_PAUSE_MS) return;
    loggedUntil = until;
    const wait = formatDuration(event.waitMs);
    const fields = {
      endpoint: event.endpoint,
      waitMs: event.waitMs,
      capped: event.capped,
      ...(event.type === 'throttled' ? { kind: event.kind } : {}),
      until: new Date(until).toISOString(),
      ...(event.requestId ? { requestId: event.requestId } : {}),
    };
    const header = event.type === 'throttled' ? 'Retry-After' : 'RateLimit-Reset';
    const asked = event.capped
      ? `waiting ${wait} as the API asked (its ${header} was further away: capped at the ${wait} maximum)`
      : `waiting ${wait} as the API asked (${event.type === 'throttled' ? 'a 429' : 'RateLimit-Remaining 0'})`;
    const message = `${asked}; every request pauses until then (SIGINT or SIGTERM stops the sync; the next run resumes it)`;
    if (event.capped) logger.warn(fields, message);
    else logger.info(fields, message);
  };
}
