/** The API client's defaults, shared by the client and the sync's configuration. */

/** The profile's largest page: fewest requests per record. */
export const DEFAULT_PAGE_SIZE = 100;
/** Five retries with backoff ride out a blip of several seconds without stalling a night run. */
export const DEFAULT_MAX_RETRIES = 5;
/** A silence longer than this (before the headers, or between body bytes) fails the attempt: retried. */
export const DEFAULT_TIMEOUT_MS = 30_000;
/**
 * Headers and the whole body of one response must arrive within this, however steadily the
 * bytes come (DEFAULT_TIMEOUT_MS only bounds the silences): a page of 100 records is well
 * under a megabyte, seconds on a slow link, so a response still coming after two minutes is
 * dripping. Past it the attempt fails as a timeout does, and is retried.
 */
export const DEFAULT_RESPONSE_DEADLINE_MS = 120_000;
