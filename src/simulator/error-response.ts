/** ErrorsCollection responses (api-v3.md "Wrappers"): `{errors: [{details, title, type, meta}]}`. */
import type { SimResponse } from './route.js';

/** Error `type` categories used by the streaming area (the spec leaves the values open). */
export type ErrorType =
  | 'invalid_request'
  | 'not_found'
  | 'conflict'
  | 'unauthorized'
  | 'forbidden'
  | 'method_not_allowed'
  | 'server_error';

export function errorResponse(
  status: number,
  type: ErrorType,
  title: string,
  details: string,
  meta: Readonly<Record<string, unknown>> = {},
): SimResponse {
  return { status, body: { errors: [{ details, title, type, meta }] } };
}
