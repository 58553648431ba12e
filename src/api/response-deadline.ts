/**
 * The whole-response deadline of one attempt: its headers and its whole body must arrive
 * within it. undici's headersTimeout and bodyTimeout only bound the silence between bytes, so
 * a server dripping one byte a second would hold a request for ever; past the deadline the
 * request is torn down and the attempt fails as a timeout does (retried). The deadline's
 * signal also follows the caller's (SIGINT, SIGTERM): a request in flight is torn down at
 * once, without waiting for its answer.
 */
import { formatDuration } from '../util/format-duration.js';

/** An attempt cut at its deadline: the attempt's error, retried like a timeout. */
export class ResponseDeadlineError extends Error {
  constructor(
    readonly deadlineMs: number,
    /** True when the headers had come and the body had not all come. */
    readonly inBody: boolean,
  ) {
    super(
      `response deadline of ${formatDuration(deadlineMs)} passed before ${inBody ? 'the body was complete' : 'the headers came'}`,
    );
    this.name = 'ResponseDeadlineError';
  }
}

export interface ResponseDeadline {
  /** Aborts the request at the deadline, or when the caller's signal aborts. */
  readonly signal: AbortSignal;
  /** True once the deadline has passed (not when the caller aborted). */
  readonly passed: boolean;
  /** Stops the timer and lets go of the caller's signal: call it once the attempt is over. */
  clear(): void;
}

export function startResponseDeadline(deadlineMs: number, caller?: AbortSignal): ResponseDeadline {
  const controller = new AbortController();
  let passed = false;
  const timer = setTimeout(() => {
    passed = true;
    controller.abort(new ResponseDeadlineError(deadlineMs, false));
  }, deadlineMs);
  const onCallerAbort = () => controller.abort(caller?.reason);
  if (caller?.aborted) onCallerAbort();
  else caller?.addEventListener('abort', onCallerAbort, { once: true });
  return {
    signal: controller.signal,
    get passed() {
      return passed;
    },
    clear() {
      clearTimeout(timer);
      caller?.removeEventListener('abort', onCallerAbort);
    },
  };
}
