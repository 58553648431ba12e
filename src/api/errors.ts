/**
 * API errors, typed by what the caller should do (as the Singer SDK does): a FatalApiError
 * is not worth retrying (bad key, not entitled, not found, bad request, wrong response
 * shape); a RetriableApiError is a transient failure that outlived its retries. Messages
 * are one line naming the cause, the endpoint and the X-Request-Id; never the API key.
 */
export class ApiError extends Error {
  /** The CLI prints the message as one line and exits with this code. */
  readonly exitCode = 1;
  constructor(
    message: string,
    readonly endpoint: string,
    readonly retriable: boolean,
    readonly status?: number,
    readonly requestId?: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = new.target.name;
  }
}

export class FatalApiError extends ApiError {
  constructor(
    message: string,
    endpoint: string,
    status?: number,
    requestId?: string,
    options?: { cause?: unknown },
  ) {
    super(message, endpoint, false, status, requestId, options);
  }
}

export class RetriableApiError extends ApiError {
  constructor(
    message: string,
    endpoint: string,
    status?: number,
    requestId?: string,
    options?: { cause?: unknown },
  ) {
    super(message, endpoint, true, status, requestId, options);
  }
}

const STATUS_TEXT: Readonly<Record<number, string>> = {
  200: 'OK',
  201: 'Created',
  202: 'Accepted',
  204: 'No Content',
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  409: 'Conflict',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

/** `503 Service Unavailable` */
export function statusLine(status: number): string {
  return `${status} ${STATUS_TEXT[status] ?? 'HTTP error'}`;
}

/** `on GET /v3/... (X-Request-Id abc)`: where a failure happened, as support needs it. */
export function where(endpoint: string, requestId: string | undefined): string {
  return `on ${endpoint}${requestId ? ` (X-Request-Id ${requestId})` : ''}`;
}

/** `401 Unauthorized on GET /v3/... (X-Request-Id abc)` */
export function describeStatus(status: number, endpoint: string, requestId: string | undefined): string {
  return `${statusLine(status)} ${where(endpoint, requestId)}`;
}

/** The `details` of an ErrorsCollection body (`{errors: [{details, title, ...}]}`), joined; else undefined. */
export function errorDetails(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const errors = (body as { errors?: unknown }).errors;
  if (!Array.isArray(errors)) return undefined;
  const details = errors
    .map((e) => (typeof e === 'object' && e !== null ? (e as { details?: unknown }).details : undefined))
    .filter((d): d is string => typeof d === 'string' && d !== '');
  return details.length ? details.join('; ').replace(/\s+/g, ' ') : undefined;
}

/** What a 4xx means for this endpoint, in the user's words. */
export function explainClientError(status: number, endpoint: string, details: string | undefined): string {
  const streaming = /\/v3\/(hooks|schemas|searches)/.test(endpoint);
  switch (status) {
    case 401:
      return 'the API key is invalid or expired (check CW_API_KEY)';
    case 403:
      return streaming
        ? 'this API key is not entitled to streaming (hooks)'
        : 'this API key is not entitled to the influencer endpoints';
    case 404:
      if (endpoint.startsWith('POST /v3/hooks')) return 'no such search';
      if (/\/v3\/hooks\//.test(endpoint)) return 'no such hook';
      if (/\/campaigns\//.test(endpoint)) return 'no such campaign';
      return details ?? 'not found';
    case 409:
      return 'a hook already exists for this search and target URL';
    default:
      return details ?? 'the API refused the request';
  }
}
