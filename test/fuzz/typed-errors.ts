/**
 * The errors the code under fuzz may throw on bad input: each is typed by what its caller does
 * (src/api/errors.ts: ApiError's fatal and retriable kinds; src/util/user-error.ts; the shared
 * depth bound's JsonTooDeepError; the sink's WholeBatchError). Anything else (a TypeError, a
 * RangeError of a stack overflow) is a bug the fuzz tier reports.
 */
import { ApiError } from '../../src/api/errors.js';
import { WholeBatchError } from '../../src/sink/whole-publish-failure.js';
import { JsonTooDeepError } from '../../src/util/json-depth.js';
import { UserError } from '../../src/util/user-error.js';

export function isTypedError(error: unknown): boolean {
  return (
    error instanceof ApiError ||
    error instanceof UserError ||
    error instanceof JsonTooDeepError ||
    error instanceof WholeBatchError
  );
}

/** `run`'s result, or undefined when it threw one of our typed errors; any other error is rethrown. */
export async function unlessTypedError<T>(run: () => T | Promise<T>): Promise<T | undefined> {
  try {
    return await run();
  } catch (error) {
    if (isTypedError(error)) return undefined;
    throw error;
  }
}
