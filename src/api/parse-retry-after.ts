/**
 * Retry-After in the four forms of api-profile.md: ISO-8601 timestamp (the simulator's
 * default), HTTP-date, Unix epoch seconds, delta-seconds. Numbers above EPOCH_THRESHOLD are
 * epoch seconds (a delay of 31 years is not meant); smaller ones are delays. Returns the wait
 * in ms (never negative: a past time means "now"), or undefined when absent or unreadable,
 * so the caller falls back to its backoff.
 */

/** 1e9 s is 2001-09-09: any epoch a server sends today is above it, any sane delay below. */
const EPOCH_THRESHOLD = 1e9;
/** ISO-8601 date-time, e.g. 2026-11-23T00:05:00Z or with an offset / fraction. */
const ISO_8601 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/i;
/** IMF-fixdate of RFC 9110, e.g. Sun, 06 Nov 1994 08:49:37 GMT. */
const HTTP_DATE = /^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/;

export function parseRetryAfter(
  value: string | undefined | null,
  now: number = Date.now(),
): number | undefined {
  if (value === undefined || value === null) return undefined;
  const text = value.trim();
  if (/^\d+(\.\d+)?$/.test(text)) {
    const n = Number(text);
    return n > EPOCH_THRESHOLD ? Math.max(0, n * 1000 - now) : n * 1000;
  }
  if (!ISO_8601.test(text) && !HTTP_DATE.test(text)) return undefined;
  const at = Date.parse(text);
  return Number.isFinite(at) ? Math.max(0, at - now) : undefined;
}
