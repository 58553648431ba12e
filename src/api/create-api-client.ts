/**
 * The API client: undici with a keep-alive pool, the shared throttle, bounded retries with
 * exponential backoff and full jitter, profile paging, typed errors. The API key goes in
 * the `apikey` header and nowhere else.
 */
import { rootCertificates } from 'node:tls';
import { Agent, request } from 'undici';
import { ApiError, describeStatus, explainClientError, FatalApiError, RetriableApiError } from './errors.js';
import { paginate } from './paginate.js';
import { parseRetryAfter } from './parse-retry-after.js';
import { Throttle } from './throttle.js';
import type {
  ApiClient,
  ApiClientOptions,
  ApiStats,
  Hook,
  RawRecord,
  SearchType,
  SegmentFilter,
} from './types.js';
import { validateBaseUrl } from './validate-base-url.js';

/** The profile's largest page: fewest requests per record. */
export const DEFAULT_PAGE_SIZE = 100;
export const DEFAULT_MAX_RETRIES = 5;
export const DEFAULT_TIMEOUT_MS = 30_000;
/** A Retry-After further away than this is capped (and reported): a night is not spent waiting. */
export const DEFAULT_MAX_RETRY_AFTER_MS = 15 * 60_000;
/** 429s tolerated for one request before giving up: they pause the run, they are not failures. */
const MAX_THROTTLED_ATTEMPTS = 20;
/** Default first backoff step: long enough to let a blip pass, short enough to stay in the night. */
export const DEFAULT_RETRY_BASE_MS = 250;
const BACKOFF_CAP_MS = 30_000;
const RETRIABLE_STATUS = new Set([500, 502, 503, 504]);

interface Call {
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  query?: Record<string, string | number | undefined>;
  body?: unknown;
  headers?: Record<string, string>;
}

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  json: unknown;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function createApiClient(options: ApiClientOptions): ApiClient {
  const base = validateBaseUrl(options.baseUrl);
  const prefix = `${base.origin}${base.pathname.replace(/\/+$/, '')}`;
  const pageSize = options.pageSize ?? DEFAULT_PAGE_SIZE;
  const maxRetries = options.maxRetries ?? DEFAULT_MAX_RETRIES;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxRetryAfterMs = options.maxRetryAfterMs ?? DEFAULT_MAX_RETRY_AFTER_MS;
  const retryBaseMs = options.retryBaseMs ?? DEFAULT_RETRY_BASE_MS;
  const emit = options.onEvent ?? (() => {});
  const dispatcher = new Agent({
    keepAliveTimeout: 30_000,
    connections: Math.max(1, options.concurrency),
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
    ...(options.ca ? { connect: { ca: [...rootCertificates, options.ca.toString()] } } : {}),
  });
  const throttle = new Throttle(options.rps, options.concurrency, (rps, reason) =>
    emit({ type: 'rate', rps, reason }),
  );
  const stats: ApiStats = { requests: 0, retries: 0, throttled: 0, throttleWaitMs: 0 };

  async function call(c: Call): Promise<Reply> {
    const endpoint = `${c.method} ${c.path}`;
    const url = new URL(prefix + c.path);
    for (const [k, v] of Object.entries(c.query ?? {}))
      if (v !== undefined && v !== '') url.searchParams.set(k, String(v));
    let failures = 0;
    let throttled = 0;
    for (;;) {
      const started = Date.now();
      let reply: Reply | undefined;
      let requestId: string | undefined;
      let reason: string;
      try {
        reply = await throttle.run(async () => {
          const res = await request(url, {
            dispatcher,
            method: c.method,
            headers: {
              apikey: options.apiKey,
              accept: 'application/json',
              ...(c.body === undefined ? {} : { 'content-type': 'application/json' }),
              ...c.headers,
            },
            ...(c.body === undefined ? {} : { body: JSON.stringify(c.body) }),
          });
          const text = await res.body.text();
          const id = res.headers['x-request-id'];
          requestId = Array.isArray(id) ? id[0] : id;
          let json: unknown;
          if (text !== '' && res.statusCode !== 204) {
            try {
              json = JSON.parse(text);
            } catch {
              json = INVALID_JSON;
            }
          }
          return { status: res.statusCode, headers: res.headers, json };
        });
        stats.requests++;
        emit({
          type: 'request',
          method: c.method,
          endpoint,
          status: reply.status,
          ms: Date.now() - started,
          ...(requestId ? { requestId } : {}),
        });
        adaptToRateLimitHeaders(reply);
        if (reply.status === 429) {
          stats.throttled++;
          if (++throttled > MAX_THROTTLED_ATTEMPTS) {
            throw new RetriableApiError(
              `giving up after ${throttled} rate-limited attempts: ${describeStatus(429, endpoint, requestId)}`,
              endpoint,
              429,
              requestId,
            );
          }
          const asked = parseRetryAfter(header(reply, 'retry-after'));
          const wait = Math.min(asked ?? backoff(throttled, retryBaseMs), maxRetryAfterMs);
          stats.throttleWaitMs += wait;
          throttle.pauseFor(wait, true);
          emit({
            type: 'throttled',
            endpoint,
            waitMs: wait,
            capped: asked !== undefined && asked > maxRetryAfterMs,
            ...(requestId ? { requestId } : {}),
          });
          continue;
        }
        if (reply.status >= 200 && reply.status < 300) {
          if (reply.json !== INVALID_JSON) {
            throttle.succeeded();
            return reply;
          }
          reason = 'the response body is not valid JSON';
        } else if (RETRIABLE_STATUS.has(reply.status)) {
          reason = describeStatus(reply.status, endpoint, requestId);
        } else {
          const details = errorDetails(reply.json);
          throw new FatalApiError(
            `${describeStatus(reply.status, endpoint, requestId)}: ${explainClientError(reply.status, endpoint, details)}`,
            endpoint,
            reply.status,
            requestId,
          );
        }
      } catch (error) {
        if (error instanceof ApiError) throw error;
        reason = `connection failed (${(error as Error).message})`;
      }
      if (++failures > maxRetries) {
        throw new RetriableApiError(
          `giving up after ${failures} attempts on ${endpoint}${requestId ? ` (X-Request-Id ${requestId})` : ''}: ${reason}`,
          endpoint,
          reply?.status,
          requestId,
        );
      }
      const delay = backoff(failures, retryBaseMs);
      stats.retries++;
      emit({
        type: 'retry',
        endpoint,
        attempt: failures,
        delayMs: delay,
        reason,
        ...(requestId ? { requestId } : {}),
      });
      await sleep(delay);
    }
  }

  /**
   * RateLimit-* headers (api-profile.md): Limit is taken as the server's rate ceiling (never
   * exceeded once seen); Remaining 0 pauses every request until the next token is due
   * (1/Limit s), or until Reset (a Unix timestamp) when Limit is unknown.
   */
  function adaptToRateLimitHeaders(reply: Reply): void {
    const limit = Number(header(reply, 'ratelimit-limit'));
    if (Number.isFinite(limit) && limit > 0) throttle.capRate(limit);
    if (reply.status === 429 || header(reply, 'ratelimit-remaining') !== '0') return;
    const reset = Number(header(reply, 'ratelimit-reset'));
    const untilReset = Number.isFinite(reset)
      ? reset > 1e9
        ? reset * 1000 - Date.now()
        : reset * 1000
      : undefined;
    const nextToken = Number.isFinite(limit) && limit > 0 ? 1000 / limit : undefined;
    const waitMs = Math.min(untilReset ?? Number.POSITIVE_INFINITY, nextToken ?? Number.POSITIVE_INFINITY);
    if (waitMs > 0 && Number.isFinite(waitMs)) throttle.pauseFor(Math.min(waitMs, maxRetryAfterMs), false);
  }

  const get = async (path: string, query?: Call['query']) =>
    (await call({ method: 'GET', path, ...(query ? { query } : {}) })).json;
  const list = (path: string, key: string, query: Call['query'] = {}) =>
    paginate((page) => get(path, { ...query, page, page_size: pageSize }), `GET ${path}`, key, pageSize);

  return {
    workspaces: () => list('/v3/accounts/me/partner/workspaces', 'workspaces'),
    tags: () => list('/v3/influencers/tags', 'tags'),
    campaigns: () => list('/v3/influencers/campaigns', 'campaigns'),
    async campaign(campaignId, filter) {
      const path = `/v3/influencers/campaigns/${encodeURIComponent(campaignId)}`;
      const body = await get(path, filterQuery(filter));
      const campaign = isRecord(body) && isRecord(body.campaign) ? body.campaign : body;
      if (!isRecord(campaign))
        throw new FatalApiError(`unexpected response on GET ${path}: not a campaign object`, `GET ${path}`);
      return campaign;
    },
    campaignPosts: (campaignId, filter) =>
      list(`/v3/influencers/campaigns/${encodeURIComponent(campaignId)}/posts`, 'posts', filterQuery(filter)),
    campaignInfluencers: (campaignId, filter) =>
      list(
        `/v3/influencers/campaigns/${encodeURIComponent(campaignId)}/influencers`,
        'influencers',
        filterQuery(filter),
      ),
    async listHooks() {
      const hooks: Hook[] = [];
      for await (const page of list('/v3/hooks', 'hooks')) hooks.push(...(page as Hook[]));
      return hooks;
    },
    async getHook(hookId) {
      const path = `/v3/hooks/${encodeURIComponent(hookId)}`;
      const body = await get(path);
      const hook = isRecord(body) && isRecord(body.hook) ? body.hook : body;
      if (!isRecord(hook))
        throw new FatalApiError(`unexpected response on GET ${path}: no hook`, `GET ${path}`);
      return hook as Hook;
    },
    async createHook(input) {
      const reply = await call({
        method: 'POST',
        path: '/v3/hooks',
        query: { company_id: input.companyId },
        body: { target_url: input.targetUrl, search_id: input.searchId },
        ...(input.secret ? { headers: { 'x-hook-secret': input.secret } } : {}),
      });
      const hook = isRecord(reply.json) && isRecord(reply.json.hook) ? reply.json.hook : reply.json;
      if (!isRecord(hook))
        throw new FatalApiError('unexpected response on POST /v3/hooks: no hook', 'POST /v3/hooks');
      return { hook: hook as Hook, secret: header(reply, 'x-hook-secret') };
    },
    async deleteHook(hookId) {
      await call({ method: 'DELETE', path: `/v3/hooks/${encodeURIComponent(hookId)}` });
    },
    schema: (type: SearchType) => get(`/v3/schemas/${type}_streaming.json`),
    searches: () => get('/v3/searches'),
    stats,
    close: () => dispatcher.close(),
  };
}

const INVALID_JSON = Symbol('invalid JSON');

/** Full jitter: spreads the retries of concurrent requests. */
function backoff(attempt: number, baseMs: number): number {
  return Math.random() * Math.min(BACKOFF_CAP_MS, baseMs * 2 ** attempt);
}

function header(reply: Reply, name: string): string | undefined {
  const value = reply.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function filterQuery(filter: SegmentFilter | undefined): Record<string, string | undefined> {
  return {
    sources: filter?.sources?.length ? filter.sources.join(',') : undefined,
    tags: filter?.tags?.length ? filter.tags.join(',') : undefined,
  };
}

function errorDetails(body: unknown): string | undefined {
  if (!isRecord(body) || !Array.isArray(body.errors)) return undefined;
  const first = body.errors[0];
  return isRecord(first) && typeof first.details === 'string' ? first.details : undefined;
}

export function isRecord(value: unknown): value is RawRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
