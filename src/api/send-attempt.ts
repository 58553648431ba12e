/**
 * One attempt of a call: through the shared throttle, one HTTP request and its body read,
 * reported as a `request` event. It decides nothing: classify-reply.ts reads what came back.
 * The API key goes in the `apikey` header and nowhere else.
 */
import type { Agent } from 'undici';
import { request } from 'undici';
import { headerOf } from '../util/header-of.js';
import type { Throttle } from './throttle/throttle.js';
import type { ApiEvent, ApiStats } from './types.js';

export interface Call {
  readonly method: 'GET' | 'POST' | 'DELETE';
  /** Path from the API root, e.g. /v3/influencers/campaigns. */
  readonly path: string;
  readonly query?: Record<string, string | number | undefined>;
  readonly body?: unknown;
  readonly headers?: Record<string, string>;
}

/** A reply as it came: status, headers, the body's text. */
export interface RawReply {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly text: string;
}

/** A successful reply, its body parsed. */
export interface Reply {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  /** Parsed JSON body; undefined for an empty body or a 204. */
  readonly json: unknown;
}

/** What one attempt brought: a reply, or the error that stopped it (after the status, when it came). */
export interface Attempt {
  /** When the throttle let it start (throttle clock ms). */
  readonly sentAt: number;
  readonly requestId?: string;
  readonly reply?: RawReply;
  readonly error?: unknown;
  readonly status?: number;
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

/** A call ready to send: its URL with the query, and its `METHOD /path` name. */
export interface PreparedCall {
  readonly call: Call;
  readonly url: URL;
  readonly endpoint: string;
}

export function prepareCall(ctx: SendContext, call: Call): PreparedCall {
  const url = new URL(ctx.prefix + call.path);
  for (const [k, v] of Object.entries(call.query ?? {}))
    if (v !== undefined && v !== '') url.searchParams.set(k, String(v));
  return { call, url, endpoint: `${call.method} ${call.path}` };
}

export async function sendAttempt(ctx: SendContext, prepared: PreparedCall): Promise<Attempt> {
  const { call: c, url, endpoint } = prepared;
  let sentAt = 0;
  let requestId: string | undefined;
  let status: number | undefined;
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
      return { status: res.statusCode, headers: res.headers, text };
    });
    return { sentAt, reply, ...(requestId ? { requestId } : {}) };
  } catch (error) {
    return {
      sentAt,
      error,
      ...(requestId ? { requestId } : {}),
      ...(status === undefined ? {} : { status }),
    };
  }
}
