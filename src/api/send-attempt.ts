/**
 * One attempt of a call: through the shared throttle, one HTTP request and its body read
 * within the response deadline (response-deadline.ts), reported as a `request` event. It
 * decides nothing: classify-reply.ts reads what came back. The caller's signal stops it at
 * once, waiting for its turn or in flight: it then rejects with the signal's reason.
 * The API key goes in the `apikey` header and nowhere else.
 */
import type { Agent } from 'undici';
import { request } from 'undici';
import { headerOf } from '../util/header-of.js';
import { untilAborted } from '../util/until-aborted.js';
import { ResponseDeadlineError, startResponseDeadline } from './response-deadline.js';
import { reportingSent, type Throttle } from './throttle/throttle.js';
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
  /** Headers and whole body of one attempt must arrive within this, ms. */
  readonly responseDeadlineMs: number;
  /** Stops every call at once, whatever it is doing: it rejects with the signal's reason. */
  readonly signal?: AbortSignal;
  /** Set at the first reply the API answered with JSON: until then, a page of HTML is no API. */
  readonly heard: { api: boolean };
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
  const { signal } = ctx;
  let sentAt = 0;
  let requestId: string | undefined;
  let status: number | undefined;
  let deadline: ReturnType<typeof startResponseDeadline> | undefined;
  try {
    const turn = ctx.throttle.runRequest(async (startedAt, sent) => {
      signal?.throwIfAborted(); // stopped while waiting for its turn: nothing is sent
      sentAt = startedAt;
      const started = Date.now();
      deadline = startResponseDeadline(ctx.responseDeadlineMs, signal);
      try {
        const res = await request(url, {
          dispatcher: reportingSent(ctx.dispatcher, sent),
          method: c.method,
          headers: {
            apikey: ctx.apiKey,
            accept: 'application/json',
            ...(c.body === undefined ? {} : { 'content-type': 'application/json' }),
            ...c.headers,
          },
          ...(c.body === undefined ? {} : { body: JSON.stringify(c.body) }),
          signal: deadline.signal,
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
      } finally {
        deadline.clear();
      }
    });
    // The throttle's queue cannot be left: a call stopped while waiting rejects here at once.
    const reply = await untilAborted(turn, signal);
    return { sentAt, reply, ...(requestId ? { requestId } : {}) };
  } catch (error) {
    if (signal?.aborted) throw signal.reason;
    return {
      sentAt,
      error: deadline?.passed
        ? new ResponseDeadlineError(ctx.responseDeadlineMs, status !== undefined)
        : error,
      ...(requestId ? { requestId } : {}),
      ...(status === undefined ? {} : { status }),
    };
  }
}
