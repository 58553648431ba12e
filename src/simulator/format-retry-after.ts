/**
 * Retry-After values in the four formats of api-profile.md. The spec calls the value a
 * timestamp: the default is an ISO-8601 UTC timestamp.
 */
export const RETRY_AFTER_FORMATS = ['iso', 'http-date', 'epoch', 'delta'] as const;
export type RetryAfterFormat = (typeof RETRY_AFTER_FORMATS)[number];

export function formatRetryAfter(format: RetryAfterFormat, waitMs: number, now = Date.now()): string {
  const at = new Date(now + waitMs);
  switch (format) {
    case 'iso':
      return at.toISOString();
    case 'http-date':
      // HTTP-dates have whole seconds: round up so the client never retries early.
      return new Date(Math.ceil(at.getTime() / 1000) * 1000).toUTCString();
    case 'epoch':
      return String(Math.ceil(at.getTime() / 1000));
    case 'delta':
      return String(Math.max(1, Math.ceil(waitMs / 1000)));
  }
}
