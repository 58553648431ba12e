/**
 * Retry-After in the four forms of api-profile.md: ISO-8601 timestamp (the default),
 * HTTP-date, Unix epoch seconds, delta-seconds. Numbers above EPOCH_THRESHOLD are epoch
 * seconds (a delay of 31 years is not meant); smaller ones are delays. Returns the wait in
 * ms (never negative), or undefined when absent or unreadable (the caller backs off).
 */
const EPOCH_THRESHOLD = 1e9;

export function parseRetryAfter(
  value: string | undefined | null,
  now: number = Date.now(),
): number | undefined {
  if (value === undefined || value === null) return undefined;
  const text = value.trim();
  if (text === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(text)) {
    const n = Number(text);
    return n > EPOCH_THRESHOLD ? Math.max(0, n * 1000 - now) : n * 1000;
  }
  const at = Date.parse(text);
  return Number.isFinite(at) ? Math.max(0, at - now) : undefined;
}
