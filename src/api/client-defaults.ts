/** The API client's defaults, shared by the client and the sync's configuration. */

/** The profile's largest page: fewest requests per record. */
export const DEFAULT_PAGE_SIZE = 100;
/** Five retries with backoff ride out a blip of several seconds without stalling a night run. */
export const DEFAULT_MAX_RETRIES = 5;
/** A response slower than this (headers, or a gap in the body) counts as failed and is retried. */
export const DEFAULT_TIMEOUT_MS = 30_000;
