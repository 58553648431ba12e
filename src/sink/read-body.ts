import type { IncomingMessage } from 'node:http';
import type { BodyClaim } from './body-budget.js';

/**
 * The raw body; 'too_large' once it crossed the limit, 'over_budget' once the body budget had
 * no room for its next chunk (reading then stops); 'aborted' when the sender went away (or was
 * timed out) before its last byte.
 */
export type BodyResult = Buffer | 'too_large' | 'over_budget' | 'aborted';

/** The request's Content-Length, or undefined when it declares none (a chunked body). */
export function declaredLength(req: IncomingMessage): number | undefined {
  const value = req.headers['content-length'];
  if (value === undefined) return undefined;
  const declared = Number(value);
  return Number.isSafeInteger(declared) && declared >= 0 ? declared : undefined;
}

/**
 * Reads a request's raw bytes up to `limit`. A body of `declared` length (already claimed in
 * full from the budget by the caller, and within the limit) is copied into one buffer of that
 * size as it arrives, so it is held once, never twice. A streamed (chunked) body claims each
 * chunk from `claim` as it comes and is cut as soon as it crosses the limit or the budget, so
 * a sender can never make the sink buffer more than either.
 */
export function readBody(
  req: IncomingMessage,
  limit: number,
  claim: BodyClaim,
  declared: number | undefined,
): Promise<BodyResult> {
  if (declared !== undefined && declared > limit) return Promise.resolve('too_large');
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let whole: Buffer | undefined;
    let size = 0;
    const finish = (result: BodyResult): void => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onAborted);
      req.off('close', onAborted);
      resolve(result);
    };
    const stop = (result: 'too_large' | 'over_budget'): void => {
      req.pause();
      finish(result);
    };
    const onData = (chunk: Buffer): void => {
      if (declared !== undefined) {
        // Its own ArrayBuffer, not a slice of Node's shared pool: the inbox writer posts the
        // body to its thread, and a structured clone copies a view's whole ArrayBuffer.
        whole ??= Buffer.allocUnsafeSlow(declared);
        size += chunk.copy(whole, size);
        return;
      }
      size += chunk.length;
      if (size > limit) stop('too_large');
      else if (!claim.grow(chunk.length)) stop('over_budget');
      else chunks.push(chunk);
    };
    const onEnd = (): void => {
      if (whole) finish(size === whole.length ? whole : whole.subarray(0, size));
      else finish(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size));
    };
    const onAborted = (): void => finish('aborted');
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onAborted);
    req.on('close', onAborted);
  });
}
