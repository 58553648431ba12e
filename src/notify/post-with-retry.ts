/**
 * One notification POST, retried with backoff by undici's RetryAgent, within a hard bound:
 * a webhook that refuses, fails or hangs costs its sender at most `totalMs`, and never throws.
 */
import { Agent, RetryAgent, request } from 'undici';

/** Each attempt gives up when the answer's headers take longer than this. */
export const ATTEMPT_TIMEOUT_MS = 10_000;
/** Retries after the first attempt: 1 s, 2 s, 4 s apart (a webhook's short outage). */
export const MAX_RETRIES = 3;
/** The whole send, retries included: beyond it the message is dropped (and counted). */
export const SEND_BOUND_MS = 30_000;

export interface PostResult {
  readonly ok: boolean;
  /** The HTTP status of the last answer, when there was one. */
  readonly status?: number;
  /** Why it failed, one line, never the URL. */
  readonly error?: string;
}

export interface Poster {
  post(url: string, body: string, contentType: string, signal?: AbortSignal): Promise<PostResult>;
  close(): Promise<void>;
}

/** Network failures worth another attempt: the webhook (or the way to it) is down or slow for a moment. */
const RETRIED_ERROR_CODES = [
  'ECONNRESET',
  'ECONNREFUSED',
  'ENOTFOUND',
  'ENETDOWN',
  'ENETUNREACH',
  'EHOSTDOWN',
  'EHOSTUNREACH',
  'EPIPE',
  'UND_ERR_SOCKET',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_CONNECT_TIMEOUT',
];

export function createPoster(
  options: { attemptTimeoutMs?: number; totalMs?: number; minRetryMs?: number } = {},
): Poster {
  const attemptTimeoutMs = options.attemptTimeoutMs ?? ATTEMPT_TIMEOUT_MS;
  const totalMs = options.totalMs ?? SEND_BOUND_MS;
  const agent = createRetryAgent(attemptTimeoutMs, options.minRetryMs ?? 1_000);
  return {
    async post(url, body, contentType, signal) {
      const bound = AbortSignal.timeout(totalMs);
      try {
        const res = await request(url, {
          method: 'POST',
          body,
          headers: { 'content-type': contentType, 'user-agent': 'campaign-warehouse' },
          dispatcher: agent,
          signal: signal ? AbortSignal.any([signal, bound]) : bound,
        });
        await res.body.dump();
        return res.statusCode < 300
          ? { ok: true, status: res.statusCode }
          : { ok: false, status: res.statusCode, error: `answered ${res.statusCode}` };
      } catch (error) {
        const status = (error as { statusCode?: unknown }).statusCode;
        return {
          ok: false,
          ...(typeof status === 'number' ? { status } : {}),
          error: describe(error, bound.aborted ? totalMs : undefined),
        };
      }
    },
    close: () => agent.destroy(),
  };
}

/** The agent of every POST: each attempt bounded by `attemptTimeoutMs`, up to MAX_RETRIES retries with backoff. */
function createRetryAgent(attemptTimeoutMs: number, minRetryMs: number): RetryAgent {
  return new RetryAgent(
    new Agent({
      headersTimeout: attemptTimeoutMs,
      bodyTimeout: attemptTimeoutMs,
      connectTimeout: attemptTimeoutMs,
    }),
    {
      maxRetries: MAX_RETRIES,
      minTimeout: minRetryMs,
      maxTimeout: 8_000,
      timeoutFactor: 2,
      // A webhook's POST: Slack and healthchecks.io take a repeat in their stride.
      methods: ['POST'],
      statusCodes: [429, 500, 502, 503, 504],
      errorCodes: RETRIED_ERROR_CODES,
    },
  );
}

/** An error as one line without the URL (undici's messages never hold it; codes say more). */
function describe(error: unknown, boundMs: number | undefined): string {
  if (boundMs !== undefined) return `no answer within ${boundMs / 1000} s`;
  const e = error as { code?: unknown; statusCode?: unknown; message?: unknown; cause?: { code?: unknown } };
  if (typeof e.statusCode === 'number') return `answered ${e.statusCode}`;
  const code = typeof e.code === 'string' ? e.code : typeof e.cause?.code === 'string' ? e.cause.code : '';
  if (code === 'ECONNREFUSED') return 'connection refused';
  if (code === 'UND_ERR_HEADERS_TIMEOUT') return 'no answer (timed out)';
  if (e.message && typeof e.message === 'string' && !/https?:\/\//.test(e.message))
    return code ? `${code}: ${e.message.split('\n')[0]}` : e.message.split('\n')[0]!;
  return code || 'request failed';
}
