/**
 * One API call with the client's policy: through the shared throttle, bounded retries of
 * transient failures (500/502/503/504, connection errors and resets, timeouts, truncated
 * bodies, invalid JSON) with exponential backoff and full jitter, 429s that pause every
 * request until their Retry-After (the throttle tells overload from rate-limit 429s), and
 * 4xx mapped to one-line FatalApiErrors. The API key goes in the `apikey` header and
 * nowhere else (never in a message, event or reason).
 */
import type { Agent } from 'undici';
import { request } from 'undici';
import { headerOf } from '../util/header-of.js';
import { backoffDelay } from './backoff-delay.js';
import {
  ApiError,
  describeStatus,
  errorDetails,
  explainClientError,
  FatalApiError,
  RetriableApiError,
  statusLine,
  where,
} from './errors.js';
import { parseRetryAfter } from './parse-retry-after.js';
import { rateLimitWait } from './rate-limit-wait.js';
import type { RefusalKind, Throttle } from './throttle.js';
import type { ApiEvent, ApiStats } from './types.js';

/** 429s tolerated for one request before giving up: they pause the run, they are not failures. */
export const MAX_THROTTLED_ATTEMPTS = 20;
const RETRIABLE_STATUS = new Set([500, 502, 503, 504]);

export interface Call {
  readonly method: 'GET' | 'POST' | 'DELETE';
  /** Path from the API root, e.g. /v3/influencers/campaigns. */
  readonly path: string;
  readonly query?: Record<string, string | number | undefined>;
  readonly body?: unknown;
  readonly headers?: Record<string, string>;
}

export interface Reply {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  /** Parsed JSON body; undefined for an empty body or a 204. */
  readonly json: unknown;
}

export interface SendContext {
  /** Origin plus base path, without a trailing slash. */
  readonly prefix: string;
  readonly apiKey: string;
  readonly dispatcher: Agent;
  readonly throttle: Throttle;
  readonly stats: ApiStats;
  readonly emit: (event: ApiEvent) => void;
  readonly maxRetries: number;
  readonly retryBaseMs: number;
  readonly maxRetryAfterMs: number;
}

const INVALID_JSON = Symbol('invalid JSON');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function sendWithRetry(ctx: SendContext, c: Call): Promise<Reply> {
  const endpoint = `${c.method} ${c.path}`;
  const url = new URL(ctx.prefix + c.path);
  for (const [k, v] of Object.entries(c.query ?? {}))
    if (v !== undefined && v !== '') url.searchParams.set(k, String(v));
  let failures = 0;
  let throttled = 0;
  for (;;) {
    let requestId: string | undefined;
    let status: number | undefined;
    let reason: string;
    let sentAt = 0;
    try {
      const reply = await ctx.throttle.run(async (startedAt) => {
        sentAt = startedAt;
        const started = Date.now();
        const res = await request(url, {
          dispatcher: ctx.dispatcher,
          method: c.method,
          headers: {
            apikey: ctx.apiKey,
            accept: 'application/json',
            ...(c.body === undefined ? {} : { 'content-type': 'application/json' }),
            ...c.headers,
          },
          ...(c.body === undefined ? {} : { body: JSON.stringify(c.body) }),
        });
        requestId = headerOf(res, 'x-request-id');
        status = res.statusCode;
        const text = await res.body.text();
        ctx.stats.requests++;
        ctx.emit({
          type: 'request',
          method: c.method,
          endpoint,
          status: res.statusCode,
          ms: Date.now() - started,
          ...(requestId ? { requestId } : {}),
        });
        return { status: res.statusCode, headers: res.headers, json: parseBody(text, res.statusCode) };
      });
      const remaining = adaptToRateLimit(ctx, reply);
      if (reply.status === 429) {
        const asked = parseRetryAfter(headerOf(reply, 'retry-after'), Date.now());
        const capped = asked !== undefined && asked > ctx.maxRetryAfterMs;
        const wait = Math.min(asked ?? backoffDelay(throttled + 1, ctx.retryBaseMs), ctx.maxRetryAfterMs);
        const kind = ctx.throttle.refused(remaining, sentAt, wait);
        if (kind === 'overload') ctx.stats.overloaded++;
        else ctx.stats.rateLimited++;
        if (++throttled > MAX_THROTTLED_ATTEMPTS) {
          throw new RetriableApiError(
            `giving up after ${throttled} rate-limited attempts ${where(endpoint, requestId)}: ${statusLine(429)}`,
            endpoint,
            429,
            requestId,
          );
        }
        addWait(ctx.stats, kind, wait);
        ctx.throttle.pauseFor(wait);
        ctx.emit({
          type: 'throttled',
          endpoint,
          waitMs: wait,
          capped,
          kind,
          ...(requestId ? { requestId } : {}),
        });
        continue;
      }
      ctx.throttle.accepted(sentAt);
      if (reply.status >= 200 && reply.status < 300) {
        if (reply.json !== INVALID_JSON) return reply;
        reason = `${statusLine(reply.status)} with a body that is not valid JSON`;
      } else if (RETRIABLE_STATUS.has(reply.status)) {
        reason = statusLine(reply.status);
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
      const tlsCode = tlsTrustErrorCode(error);
      if (tlsCode !== undefined) {
        // Retrying cannot make an untrusted certificate trusted: fail at once, saying what to do.
        throw new FatalApiError(
          `TLS certificate not trusted ${where(endpoint, undefined)}: ${tlsCode} (trust the server's CA with the ca option)`,
          endpoint,
          undefined,
          undefined,
          { cause: error },
        );
      }
      // undici's messages name the failure (reset, timeout, body read), never the headers sent.
      const cause = error instanceof Error ? error.message : String(error);
      reason =
        status === undefined
          ? `connection failed (${cause})`
          : `${statusLine(status)} body read failed (${cause})`;
    }
    if (++failures > ctx.maxRetries) {
      throw new RetriableApiError(
        `giving up after ${failures} attempts ${where(endpoint, requestId)}: ${reason}`,
        endpoint,
        status,
        requestId,
      );
    }
    const delay = backoffDelay(failures, ctx.retryBaseMs);
    ctx.stats.retries++;
    ctx.emit({
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

/** Node's codes for a certificate chain or name that does not verify. */
const TLS_TRUST_CODES =
  /^(DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_VERIFY_LEAF_SIGNATURE|UNABLE_TO_GET_ISSUER_CERT(_LOCALLY)?|CERT_[A-Z_]+|ERR_TLS_CERT_ALTNAME_INVALID)$/;

function tlsTrustErrorCode(error: unknown): string | undefined {
  for (let e = error, depth = 0; e instanceof Error && depth < 4; e = e.cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && TLS_TRUST_CODES.test(code)) return code;
  }
  return undefined;
}

function parseBody(text: string, status: number): unknown {
  if (text === '' || status === 204) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return INVALID_JSON;
  }
}

/**
 * RateLimit-Limit caps the rate for good, Remaining teaches the burst; Remaining 0 on an
 * answer pauses every request (see rateLimitWait). Returns RateLimit-Remaining.
 */
function adaptToRateLimit(ctx: SendContext, reply: Reply): number | undefined {
  const advice = rateLimitWait((name) => headerOf(reply, name), Date.now());
  ctx.throttle.observe(advice.limitRps, advice.remaining);
  if (reply.status !== 429 && advice.waitMs !== undefined) {
    const wait = Math.min(advice.waitMs, ctx.maxRetryAfterMs);
    addWait(ctx.stats, 'rate-limit', wait);
    ctx.throttle.pauseFor(wait);
  }
  return advice.remaining;
}

function addWait(stats: ApiStats, kind: RefusalKind, ms: number): void {
  if (kind === 'overload') stats.overloadWaitMs += ms;
  else stats.rateLimitWaitMs += ms;
}
