/**
 * One API call with the client's policy, as a sequence of steps per attempt: send it
 * (send-attempt.ts), classify the reply once (classify-reply.ts), let the throttle weigh the
 * verdict (throttle/throttle.ts), then act on it:
 * - success: return the reply;
 * - fatal: throw its one-line FatalApiError;
 * - throttled (a 429): pause every request for its wait and try again, up to
 *   MAX_THROTTLED_ATTEMPTS (429s are not failures: they do not use up retries);
 * - retry: back off (exponential, full jitter) and try again, up to maxRetries.
 * A RateLimit-Remaining 0 on any other reply pauses every request until a token is back.
 * A response not complete within its deadline is a failure like a timeout (retried). The
 * context's signal stops a call at once, in flight or waiting (its turn, a pause, a backoff):
 * it rejects with the signal's reason.
 * The API key goes in the `apikey` header and nowhere else (never in a message, event or reason).
 */
import { sleepUnlessAborted } from '../util/sleep-unless-aborted.js';
import { backoffDelay } from './backoff-delay.js';
import { classifyReply, type ReplyVerdict } from './classify-reply.js';
import { RetriableApiError, statusLine, where } from './errors.js';
import {
  type Call,
  type PreparedCall,
  prepareCall,
  type Reply,
  type SendContext,
  sendAttempt,
} from './send-attempt.js';
import type { RefusalKind } from './throttle/throttle.js';

/** 429s tolerated for one request before giving up: they pause the run, they are not failures. */
export const MAX_THROTTLED_ATTEMPTS = 20;

type Throttled = Extract<ReplyVerdict, { type: 'throttled' }>;
type Retry = Extract<ReplyVerdict, { type: 'retry' }>;

/** What one call has been through so far. */
interface Tally {
  failures: number;
  throttled: number;
}

export async function sendWithRetry(ctx: SendContext, call: Call): Promise<Reply> {
  const prepared = prepareCall(ctx, call);
  const tally: Tally = { failures: 0, throttled: 0 };
  for (;;) {
    const attempt = await sendAttempt(ctx, prepared);
    const verdict = classifyReply(attempt, {
      endpoint: prepared.endpoint,
      now: Date.now(),
      maxRetryAfterMs: ctx.maxRetryAfterMs,
      backoffMs: () => backoffDelay(tally.throttled + 1, ctx.retryBaseMs),
      heardApi: ctx.heard.api,
    });
    const kind = ctx.throttle.settle(verdict, attempt.sentAt);
    if (verdict.type === 'throttled') {
      holdForRefusal(ctx, prepared, verdict, kind!, ++tally.throttled, attempt.requestId);
      continue;
    }
    holdForRemainingZero(ctx, prepared, verdict.pauseMs, attempt.requestId);
    if (verdict.type === 'success') {
      ctx.heard.api = true;
      return verdict.reply;
    }
    if (verdict.type === 'fatal') throw verdict.error;
    await backOff(ctx, prepared, verdict, ++tally.failures, attempt.requestId);
  }
}

/** A 429: counted by its kind, then every request pauses for its wait (or the call gives up). */
function holdForRefusal(
  ctx: SendContext,
  { endpoint }: PreparedCall,
  verdict: Throttled,
  kind: RefusalKind,
  throttled: number,
  requestId: string | undefined,
): void {
  if (kind === 'overload') ctx.stats.overloaded++;
  else ctx.stats.rateLimited++;
  if (throttled > MAX_THROTTLED_ATTEMPTS) {
    throw new RetriableApiError(
      `giving up after ${throttled} rate-limited attempts ${where(endpoint, requestId)}: ${statusLine(429)}`,
      endpoint,
      429,
      requestId,
    );
  }
  addWait(ctx, kind, verdict.waitMs);
  ctx.throttle.pauseFor(verdict.waitMs);
  const { waitMs, capped } = verdict;
  ctx.emit({ type: 'throttled', endpoint, waitMs, capped, kind, ...(requestId ? { requestId } : {}) });
}

/** RateLimit-Remaining 0 on a reply that is not a 429: every request waits until a token is back. */
function holdForRemainingZero(
  ctx: SendContext,
  { endpoint }: PreparedCall,
  pauseMs: number | undefined,
  requestId: string | undefined,
): void {
  if (pauseMs === undefined) return;
  addWait(ctx, 'rate-limit', pauseMs);
  ctx.throttle.pauseFor(pauseMs);
  // classify-reply.ts caps the pause at maxRetryAfterMs: a pause that long was (almost surely) capped.
  const capped = pauseMs >= ctx.maxRetryAfterMs;
  ctx.emit({ type: 'paused', endpoint, waitMs: pauseMs, capped, ...(requestId ? { requestId } : {}) });
}

/** A transient failure: wait a backoff step and try again, or give up after maxRetries. */
async function backOff(
  ctx: SendContext,
  { endpoint }: PreparedCall,
  { reason, status }: Retry,
  failures: number,
  requestId: string | undefined,
): Promise<void> {
  if (failures > ctx.maxRetries) {
    throw new RetriableApiError(
      `giving up after ${failures} attempts ${where(endpoint, requestId)}: ${reason}`,
      endpoint,
      status,
      requestId,
    );
  }
  const delayMs = backoffDelay(failures, ctx.retryBaseMs);
  ctx.stats.retries++;
  ctx.emit({
    type: 'retry',
    endpoint,
    attempt: failures,
    delayMs,
    reason,
    ...(requestId ? { requestId } : {}),
  });
  await sleepUnlessAborted(delayMs, ctx.signal);
}

function addWait({ stats }: SendContext, kind: RefusalKind, ms: number): void {
  if (kind === 'overload') stats.overloadWaitMs += ms;
  else stats.rateLimitWaitMs += ms;
}
