/**
 * The API client: undici with a keep-alive pool, the shared throttle (throttle/throttle.ts),
 * bounded retries (send-with-retry.ts), a deadline per response (response-deadline.ts),
 * profile paging (paginate.ts), typed errors (errors.ts), stopped at once by its signal.
 * The API key goes in the `apikey` header and nowhere else.
 */
import { rootCertificates } from 'node:tls';
import { Agent } from 'undici';
import { createApiStats } from './api-stats.js';
import {
  DEFAULT_MAX_RETRIES,
  DEFAULT_PAGE_SIZE,
  DEFAULT_RESPONSE_DEADLINE_MS,
  DEFAULT_TIMEOUT_MS,
} from './client-defaults.js';
import { hookEndpoints } from './hook-endpoints.js';
import { influencerEndpoints } from './influencer-endpoints.js';
import { createRequester } from './requester.js';
import type { SendContext } from './send-attempt.js';
import { Throttle } from './throttle/throttle.js';
import type { ApiClient, ApiClientOptions, SearchType } from './types.js';
import { validateBaseUrl } from './validate-base-url.js';

/** A Retry-After further away than this is capped (and reported): a night is not spent waiting. */
export const DEFAULT_MAX_RETRY_AFTER_MS = 15 * 60_000;
/** Default first backoff step: long enough to let a blip pass, short enough to stay in the night. */
export const DEFAULT_RETRY_BASE_MS = 250;
/** Idle keep-alive sockets live this long: a paging run reuses them, an idle client lets go. */
const KEEP_ALIVE_MS = 30_000;

export function createApiClient(options: ApiClientOptions): ApiClient {
  const ctx = sendContext(options);
  const api = createRequester(ctx, options.pageSize ?? DEFAULT_PAGE_SIZE);
  return {
    ...influencerEndpoints(api),
    ...hookEndpoints(api),
    schema: (type: SearchType) => api.get(`/v3/schemas/${type}_streaming.json`),
    searches: () => api.get('/v3/searches'),
    stats: ctx.stats,
    close: () => ctx.dispatcher.close(),
  };
}

/** What every call of the client shares: the base URL, the key, the pool, the throttle, the stats, the policy. */
function sendContext(options: ApiClientOptions): SendContext {
  const base = validateBaseUrl(options.baseUrl);
  const emit = options.onEvent ?? (() => {});
  const throttle = new Throttle(options.rps, options.concurrency, (rps, reason) =>
    emit({ type: 'rate', rps, reason }),
  );
  return {
    prefix: `${base.origin}${base.pathname.replace(/\/+$/, '')}`,
    apiKey: options.apiKey,
    dispatcher: openPool(options),
    throttle,
    stats: createApiStats(throttle),
    emit,
    maxRetries: options.maxRetries ?? DEFAULT_MAX_RETRIES,
    retryBaseMs: options.retryBaseMs ?? DEFAULT_RETRY_BASE_MS,
    maxRetryAfterMs: options.maxRetryAfterMs ?? DEFAULT_MAX_RETRY_AFTER_MS,
    responseDeadlineMs: options.responseDeadlineMs ?? DEFAULT_RESPONSE_DEADLINE_MS,
    ...(options.signal ? { signal: options.signal } : {}),
    heard: { api: false },
  };
}

/** The keep-alive pool: one connection per concurrent request, the timeouts, the extra CA. */
function openPool(options: ApiClientOptions): Agent {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  return new Agent({
    keepAliveTimeout: KEEP_ALIVE_MS,
    connections: Math.max(1, options.concurrency),
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
    // The extra CA is trusted in addition to the default roots, not instead of them.
    ...(options.ca ? { connect: { ca: [...rootCertificates, options.ca.toString()] } } : {}),
  });
}
