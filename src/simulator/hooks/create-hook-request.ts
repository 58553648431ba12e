/**
 * Validation of POST /v3/hooks input (api-v3.md CreateHookRequest and the X-Hook-Secret
 * header): a pure function from the raw request to either the accepted values or a 400.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { SimResponse } from '../route.js';

/** The spec's bounds on the X-Hook-Secret length, in characters. */
export const MIN_SECRET_LENGTH = 16;
export const MAX_SECRET_LENGTH = 64;

const INT32_MAX = 2 ** 31 - 1;

export interface CreateHookInput {
  readonly targetUrl: string;
  /** WHATWG serialization of targetUrl: the key of the duplicate check. */
  readonly normalizedTarget: string;
  readonly searchId: number;
  /** The caller's secret, or undefined when the service must generate one. */
  readonly secret: string | undefined;
  /** The `company_id` query parameter, or undefined when absent or empty. */
  readonly companyId: string | undefined;
}

interface FieldError {
  readonly details: string;
  readonly title: string;
  readonly type: 'invalid_request';
  readonly meta: Readonly<Record<string, unknown>>;
}

export function parseCreateHook(
  body: Buffer,
  headers: IncomingHttpHeaders,
  query: URLSearchParams,
): CreateHookInput | SimResponse {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    return badRequest([fieldError('body', 'The request body must be a JSON object')]);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    return badRequest([fieldError('body', 'The request body must be a JSON object')]);
  }
  const fields = parsed as Record<string, unknown>;
  const errors: FieldError[] = [];
  const target = checkTargetUrl(fields.target_url);
  if (typeof target === 'string') errors.push(fieldError('target_url', target));
  const searchId = fields.search_id;
  if (searchId === undefined || searchId === null) {
    errors.push(fieldError('search_id', 'search_id is required'));
  } else if (typeof searchId !== 'number' || !Number.isInteger(searchId) || Math.abs(searchId) > INT32_MAX) {
    errors.push(fieldError('search_id', 'search_id must be an int32 integer'));
  }
  const secret = headers['x-hook-secret'];
  if (Array.isArray(secret)) {
    errors.push(fieldError('X-Hook-Secret', 'X-Hook-Secret must be sent once'));
  } else if (
    secret !== undefined &&
    (secret.length < MIN_SECRET_LENGTH || secret.length > MAX_SECRET_LENGTH)
  ) {
    errors.push(
      fieldError(
        'X-Hook-Secret',
        `X-Hook-Secret must be ${MIN_SECRET_LENGTH} to ${MAX_SECRET_LENGTH} characters long`,
      ),
    );
  }
  if (errors.length > 0 || typeof target === 'string') return badRequest(errors);
  return {
    targetUrl: fields.target_url as string,
    normalizedTarget: target.href,
    searchId: searchId as number,
    secret: secret as string | undefined,
    companyId: query.get('company_id') || undefined,
  };
}

/** The parsed URL, or why the value is not an acceptable target. */
function checkTargetUrl(value: unknown): URL | string {
  if (value === undefined || value === null) return 'target_url is required';
  if (typeof value !== 'string') return 'target_url must be a string';
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'target_url must be an absolute URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'target_url must use http or https';
  return url;
}

function fieldError(field: string, details: string): FieldError {
  return { details, title: 'Invalid request', type: 'invalid_request', meta: { field } };
}

function badRequest(errors: readonly FieldError[]): SimResponse {
  return { status: 400, body: { errors } };
}
