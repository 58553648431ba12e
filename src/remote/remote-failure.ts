import { RUNTIME_EXIT_CODE } from '../util/user-error.js';

/**
 * A failure of the object store (endpoint down, throttled past the SDK's retries, bad
 * credentials, missing bucket, access denied), as one line naming the bucket, the host and the
 * S3 error code, never a credential. The local lake is untouched by it: exit 1, and the next
 * publish or `remote push` catches up.
 */
export class RemoteFailure extends Error {
  readonly exitCode = RUNTIME_EXIT_CODE;

  constructor(
    message: string,
    readonly code: string,
    readonly status: number | undefined,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'RemoteFailure';
  }

  static from(error: unknown, where: { bucket: string; host: string; doing: string }): RemoteFailure {
    if (error instanceof RemoteFailure) return error;
    const { code, status } = codeOf(error);
    const http = status ? ` (HTTP ${status})` : '';
    return new RemoteFailure(
      `remote s3://${where.bucket} at ${where.host}: ${code}${http} while ${where.doing}`,
      code,
      status,
      { cause: error },
    );
  }
}

/**
 * The S3 error code (NoSuchBucket, AccessDenied, SlowDown, InvalidAccessKeyId…), a network
 * error's code (ECONNREFUSED, ECONNRESET, ETIMEDOUT…) or the error's name. Never its message:
 * an SDK message may quote a request's headers.
 */
function codeOf(error: unknown): { code: string; status: number | undefined } {
  const e = error as { name?: string; code?: string; Code?: string; $metadata?: { httpStatusCode?: number } };
  const status = e.$metadata?.httpStatusCode;
  const code =
    e.Code ??
    (e.code && /^[A-Z][A-Z_]+$/.test(e.code) ? e.code : undefined) ??
    (e.name && e.name !== 'Error' ? e.name : undefined) ??
    'UnknownError';
  return { code, status };
}
