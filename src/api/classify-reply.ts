/**
 * The one decision per API reply: what an attempt's outcome means for the client. Every
 * header the client acts on (Retry-After, RateLimit-*) and every status is read here, once;
 * retry (send-with-retry.ts), pacing and rate control (throttle/throttle.ts) act on the
 * verdict instead of reading the reply again.
 *
 * - success: a 2xx with a JSON body (or none);
 * - retry: a transient failure, with its reason (500/502/503/504, a 2xx whose body is not
 *   JSON or, to a GET, empty, a connection failure, a body that could not be read);
 * - fatal: not worth retrying, with the error to throw (a 4xx, an untrusted certificate, a 2xx
 *   whose JSON nests deeper than MAX_JSON_DEPTH);
 * - throttled: a 429, with the wait it asked (Retry-After, or the backoff without one; capped
 *   at maxRetryAfterMs) and what its RateLimit-* headers said. Whether it was overload or
 *   the rate limit is the throttle's answer when it weighs the verdict (Throttle.settle):
 *   RateLimit-Remaining says so when sent, else the evidence of the replies before it.
 *
 * Every verdict of a reply carries its RateLimit-* headers (`limits`); one that is not a 429
 * and says RateLimit-Remaining 0 also carries the pause it asks of every request (`pauseMs`).
 */
import { headerOf } from '../util/header-of.js';
import { JsonTooDeepError, MAX_JSON_DEPTH } from '../util/json-depth.js';
import { parseJsonExact } from '../util/parse-json-exact.js';
import {
  describeStatus,
  errorDetails,
  explainClientError,
  FatalApiError,
  statusLine,
  where,
} from './errors.js';
import { parseRetryAfter } from './parse-retry-after.js';
import type { Attempt, RawReply, Reply } from './send-attempt.js';
import { type RateLimitAdvice, rateLimitWait } from './throttle/throttle.js';

export type ReplyVerdict =
  | {
      readonly type: 'success';
      readonly reply: Reply;
      /** What the reply's RateLimit-* headers said (every verdict on a reply carries them). */
      readonly limits: RateLimitAdvice;
      /** RateLimit-Remaining 0 on a reply that is not a 429: the pause every request takes (capped), ms. */
      readonly pauseMs?: number;
    }
  | {
      readonly type: 'retry';
      readonly reason: string;
      readonly status?: number;
      /** Absent when no reply came (the connection failed, or its body could not be read). */
      readonly limits?: RateLimitAdvice;
      readonly pauseMs?: number;
    }
  | {
      readonly type: 'fatal';
      readonly error: FatalApiError;
      readonly limits?: RateLimitAdvice;
      readonly pauseMs?: number;
    }
  | {
      readonly type: 'throttled';
      /** The pause every request takes: Retry-After, or the backoff without one, capped. */
      readonly waitMs: number;
      /** True when Retry-After asked for more than maxRetryAfterMs. */
      readonly capped: boolean;
      readonly limits: RateLimitAdvice;
    };

/** How the client reads replies to one call. */
export interface ReplyPolicy {
  /** `GET /v3/...`: names the call in errors and reasons. */
  readonly endpoint: string;
  /** Wall-clock ms: Retry-After and RateLimit-Reset name wall-clock times. */
  readonly now: number;
  readonly maxRetryAfterMs: number;
  /** The wait of a 429 without a (readable) Retry-After. */
  readonly backoffMs: () => number;
  /**
   * Whether the API has answered this client with JSON before: until it has, a 2xx page of
   * HTML is a server that is not the API (a wrong base URL), refused at once, not retried.
   */
  readonly heardApi?: boolean;
}

const RETRIABLE_STATUS = new Set([500, 502, 503, 504]);
const INVALID_JSON = Symbol('invalid JSON');
const TOO_DEEP = Symbol('nested too deep');

export function classifyReply(attempt: Attempt, policy: ReplyPolicy): ReplyVerdict {
  if (attempt.reply === undefined) return classifyFailure(attempt, policy.endpoint);
  const { reply } = attempt;
  const limits = rateLimitWait((name) => headerOf(reply, name), policy.now);
  if (reply.status === 429) return classifyRefusal(reply, limits, policy);
  const pause =
    limits.waitMs === undefined ? {} : { pauseMs: Math.min(limits.waitMs, policy.maxRetryAfterMs) };
  const verdict = classifyStatus(reply, attempt.requestId, policy.endpoint);
  if (verdict.type === 'retry' && policy.heardApi === false && isHtmlPage(reply))
    return { type: 'fatal', error: notTheApi(reply, policy.endpoint), limits, ...pause };
  return { ...verdict, limits, ...pause };
}

/** A page for a browser: an HTML content type, or a body that opens as a document does. */
function isHtmlPage(reply: RawReply): boolean {
  return (
    /html/i.test(headerOf(reply, 'content-type') ?? '') ||
    /^\s*<(!doctype|html|head|body)\b/i.test(reply.text)
  );
}

function notTheApi(reply: RawReply, endpoint: string): FatalApiError {
  const message = `${endpoint}: ${BASE_URL_SOURCE} points at a server that is not the API: it answered ${statusLine(reply.status)} with an HTML page`;
  return new FatalApiError(message, endpoint, reply.status);
}

/** Where the base URL the client was given comes from, for the lines that doubt it. */
const BASE_URL_SOURCE = 'the base URL (--base-url, CW_BASE_URL or the config file)';

/** A 429: the wait it asks for every request. */
function classifyRefusal(reply: RawReply, limits: RateLimitAdvice, policy: ReplyPolicy): ReplyVerdict {
  const asked = parseRetryAfter(headerOf(reply, 'retry-after'), policy.now);
  const capped = asked !== undefined && asked > policy.maxRetryAfterMs;
  const waitMs = Math.min(asked ?? policy.backoffMs(), policy.maxRetryAfterMs);
  return { type: 'throttled', waitMs, capped, limits };
}

/** A reply other than a 429, by its status and body. */
function classifyStatus(
  reply: RawReply,
  requestId: string | undefined,
  endpoint: string,
):
  | { type: 'success'; reply: Reply }
  | { type: 'retry'; reason: string; status: number }
  | {
      type: 'fatal';
      error: FatalApiError;
    } {
  const { status } = reply;
  if (status >= 200 && status < 300) {
    // An empty body where a GET expects JSON was cut short, as a truncated one: retried.
    if (status !== 204 && endpoint.startsWith('GET ') && reply.text.trim() === '')
      return { type: 'retry', reason: `${statusLine(status)} with an empty body`, status };
    const json = parseBody(reply.text, status);
    if (json === TOO_DEEP) return { type: 'fatal', error: tooDeep(endpoint, status, requestId) };
    if (json !== INVALID_JSON) return { type: 'success', reply: { status, headers: reply.headers, json } };
    return { type: 'retry', reason: `${statusLine(status)} with a body that is not valid JSON`, status };
  }
  if (RETRIABLE_STATUS.has(status)) return { type: 'retry', reason: statusLine(status), status };
  const details = errorDetails(parseBody(reply.text, status));
  const message = `${describeStatus(status, endpoint, requestId)}: ${explainClientError(status, endpoint, details)}`;
  return { type: 'fatal', error: new FatalApiError(message, endpoint, status, requestId) };
}

/** No reply: an untrusted certificate is fatal, any other failure is retried. */
function classifyFailure(attempt: Attempt, endpoint: string): ReplyVerdict {
  const tlsCode = tlsTrustErrorCode(attempt.error);
  if (tlsCode !== undefined) {
    // Retrying cannot make an untrusted certificate trusted: fail at once, saying what to do.
    const message = `TLS certificate not trusted ${where(endpoint, undefined)}: ${tlsCode} (trust the server's CA with the ca option)`;
    return {
      type: 'fatal',
      error: new FatalApiError(message, endpoint, undefined, undefined, { cause: attempt.error }),
    };
  }
  if (plainHttpCode(attempt.error) !== undefined) {
    // Retrying cannot make a plain-HTTP server speak TLS.
    const message = `${endpoint}: ${BASE_URL_SOURCE} says https://, but the server answered plain HTTP (http:// is for loopback hosts only)`;
    return {
      type: 'fatal',
      error: new FatalApiError(message, endpoint, undefined, undefined, { cause: attempt.error }),
    };
  }
  // undici's messages name the failure (reset, timeout, body read), never the headers sent.
  const cause = attempt.error instanceof Error ? attempt.error.message : String(attempt.error);
  const { status } = attempt;
  return status === undefined
    ? { type: 'retry', reason: `connection failed (${cause})` }
    : { type: 'retry', reason: `${statusLine(status)} body read failed (${cause})`, status };
}

/** Node's codes for a certificate chain or name that does not verify. */
const TLS_TRUST_CODES =
  /^(DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_VERIFY_LEAF_SIGNATURE|UNABLE_TO_GET_ISSUER_CERT(_LOCALLY)?|CERT_[A-Z_]+|ERR_TLS_CERT_ALTNAME_INVALID)$/;

function tlsTrustErrorCode(error: unknown): string | undefined {
  return errorCode(error, TLS_TRUST_CODES);
}

/** OpenSSL's code for a TLS hello answered by a server speaking plain HTTP. */
function plainHttpCode(error: unknown): string | undefined {
  return errorCode(error, /^ERR_SSL_(WRONG_VERSION_NUMBER|PACKET_LENGTH_TOO_LONG|HTTP_REQUEST)$/);
}

/** The first error code along the cause chain that matches `pattern`. */
function errorCode(error: unknown, pattern: RegExp): string | undefined {
  for (let e = error, depth = 0; e instanceof Error && depth < 4; e = e.cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && pattern.test(code)) return code;
  }
  return undefined;
}

/**
 * The body's JSON, integers beyond 2^53 exact (as bigint: parseJsonExact); INVALID_JSON when it
 * is not JSON, TOO_DEEP when it nests past MAX_JSON_DEPTH (which no reply of the API does).
 */
function parseBody(text: string, status: number): unknown {
  if (text === '' || status === 204) return undefined;
  try {
    return parseJsonExact(text);
  } catch (error) {
    return error instanceof JsonTooDeepError ? TOO_DEEP : INVALID_JSON;
  }
}

/** A reply nested too deep is refused, not retried: the same request gets the same reply. */
function tooDeep(endpoint: string, status: number, requestId: string | undefined): FatalApiError {
  const id = requestId ? ` (X-Request-Id ${requestId})` : '';
  const message = `${endpoint}: reply nested deeper than ${MAX_JSON_DEPTH} levels${id}`;
  return new FatalApiError(message, endpoint, status, requestId);
}
