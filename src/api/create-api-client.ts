/**
 * The API client: undici with a keep-alive pool, the shared throttle, bounded retries
 * (send-with-retry.ts), profile paging (paginate.ts), typed errors (errors.ts). The API key
 * goes in the `apikey` header and nowhere else.
 */
import { rootCertificates } from 'node:tls';
import { Agent } from 'undici';
import { headerOf } from '../util/header-of.js';
import { FatalApiError } from './errors.js';
import { filterQuery } from './filter-query.js';
import { isRecord } from './is-record.js';
import { paginate } from './paginate.js';
import { type Call, type SendContext, sendWithRetry } from './send-with-retry.js';
import { Throttle } from './throttle.js';
import type { ApiClient, ApiClientOptions, ApiStats, Hook, RawRecord, SearchType } from './types.js';
import { validateBaseUrl } from './validate-base-url.js';

/** The profile's largest page: fewest requests per record. */
export const DEFAULT_PAGE_SIZE = 100;
/** Five retries with backoff ride out a blip of several seconds without stalling a night run. */
export const DEFAULT_MAX_RETRIES = 5;
/** A response slower than this (headers, or a gap in the body) counts as failed and is retried. */
export const DEFAULT_TIMEOUT_MS = 30_000;
/** A Retry-After further away than this is capped (and reported): a night is not spent waiting. */
export const DEFAULT_MAX_RETRY_AFTER_MS = 15 * 60_000;
/** Default first backoff step: long enough to let a blip pass, short enough to stay in the night. */
export const DEFAULT_RETRY_BASE_MS = 250;
/** Idle keep-alive sockets live this long: a paging run reuses them, an idle client lets go. */
const KEEP_ALIVE_MS = 30_000;

export function createApiClient(options: ApiClientOptions): ApiClient {
  const base = validateBaseUrl(options.baseUrl);
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const pageSize = options.pageSize ?? DEFAULT_PAGE_SIZE;
  const emit = options.onEvent ?? (() => {});
  const dispatcher = new Agent({
    keepAliveTimeout: KEEP_ALIVE_MS,
    connections: Math.max(1, options.concurrency),
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
    // The extra CA is trusted in addition to the default roots, not instead of them.
    ...(options.ca ? { connect: { ca: [...rootCertificates, options.ca.toString()] } } : {}),
  });
  const throttle = new Throttle(options.rps, options.concurrency, (rps, reason) =>
    emit({ type: 'rate', rps, reason }),
  );
  const stats: ApiStats = {
    requests: 0,
    retries: 0,
    overloaded: 0,
    rateLimited: 0,
    overloadWaitMs: 0,
    rateLimitWaitMs: 0,
    get throttled() {
      return this.overloaded + this.rateLimited;
    },
    get throttleWaitMs() {
      return this.overloadWaitMs + this.rateLimitWaitMs;
    },
    get rateRps() {
      return throttle.state.rps;
    },
    get rateReason() {
      return throttle.state.reason;
    },
  };
  const ctx: SendContext = {
    prefix: `${base.origin}${base.pathname.replace(/\/+$/, '')}`,
    apiKey: options.apiKey,
    dispatcher,
    throttle,
    stats,
    emit,
    maxRetries: options.maxRetries ?? DEFAULT_MAX_RETRIES,
    retryBaseMs: options.retryBaseMs ?? DEFAULT_RETRY_BASE_MS,
    maxRetryAfterMs: options.maxRetryAfterMs ?? DEFAULT_MAX_RETRY_AFTER_MS,
  };

  const call = (c: Call) => sendWithRetry(ctx, c);
  const get = async (path: string, query?: Call['query']) =>
    (await call({ method: 'GET', path, ...(query ? { query } : {}) })).json;
  const list = (path: string, key: string, query: Call['query'] = {}) =>
    paginate((page) => get(path, { ...query, page, page_size: pageSize }), `GET ${path}`, key, pageSize);
  /** `{<key>: {...}}` or the bare object (tolerated); anything else is a wrong shape. */
  const unwrap = (body: unknown, key: string, endpoint: string): RawRecord => {
    const inner = isRecord(body) && isRecord(body[key]) ? body[key] : body;
    if (!isRecord(inner))
      throw new FatalApiError(`unexpected response on ${endpoint}: no ${key} object`, endpoint);
    return inner;
  };
  const campaignPath = (id: string) => `/v3/influencers/campaigns/${encodeURIComponent(id)}`;
  const hookPath = (id: string) => `/v3/hooks/${encodeURIComponent(id)}`;

  return {
    workspaces: () => list('/v3/accounts/me/partner/workspaces', 'workspaces'),
    tags: () => list('/v3/influencers/tags', 'tags'),
    campaigns: () => list('/v3/influencers/campaigns', 'campaigns'),
    async campaign(campaignId, filter) {
      const path = campaignPath(campaignId);
      return unwrap(await get(path, filterQuery(filter)), 'campaign', `GET ${path}`);
    },
    campaignPosts: (campaignId, filter) =>
      list(`${campaignPath(campaignId)}/posts`, 'posts', filterQuery(filter)),
    campaignInfluencers: (campaignId, filter) =>
      list(`${campaignPath(campaignId)}/influencers`, 'influencers', filterQuery(filter)),
    async listHooks() {
      const hooks: Hook[] = [];
      for await (const page of list('/v3/hooks', 'hooks')) hooks.push(...(page as Hook[]));
      return hooks;
    },
    async getHook(hookId) {
      const path = hookPath(hookId);
      return unwrap(await get(path), 'hook', `GET ${path}`) as Hook;
    },
    async createHook(input) {
      const reply = await call({
        method: 'POST',
        path: '/v3/hooks',
        query: { company_id: input.companyId },
        body: { target_url: input.targetUrl, search_id: input.searchId },
        ...(input.secret ? { headers: { 'x-hook-secret': input.secret } } : {}),
      });
      const hook = unwrap(reply.json, 'hook', 'POST /v3/hooks') as Hook;
      return { hook, secret: headerOf(reply, 'x-hook-secret') };
    },
    async deleteHook(hookId) {
      const path = hookPath(hookId);
      const reply = await call({ method: 'DELETE', path });
      // The spec answers 204; a 200 is tolerated (the hook is gone either way).
      if (reply.status !== 204 && reply.status !== 200)
        throw new FatalApiError(
          `unexpected ${reply.status} on DELETE ${path}`,
          `DELETE ${path}`,
          reply.status,
        );
    },
    schema: (type: SearchType) => get(`/v3/schemas/${type}_streaming.json`),
    searches: () => get('/v3/searches'),
    stats,
    close: () => dispatcher.close(),
  };
}
