/**
 * One clear line per error status of the hook endpoints (api-v3.md, Streaming): the
 * generic client message names the endpoint and status; this names what the user must do.
 * The X-Request-Id is kept for support; the API key and hook secrets never appear.
 */
import { ApiError } from '../api/errors.js';
import { UserError } from '../util/user-error.js';

export type HookOperation = 'create' | 'list' | 'get' | 'delete';

export interface HookErrorContext {
  readonly operation: HookOperation;
  readonly hookId?: string;
  readonly searchId?: number;
  readonly targetUrl?: string;
}

/** The message for an API status on a hook operation, or undefined when the status has none of its own. */
export function hookErrorMessage(status: number, ctx: HookErrorContext): string | undefined {
  switch (status) {
    case 400:
      return ctx.operation === 'create'
        ? `the API refused the hook as invalid (400): check --search-id ${ctx.searchId ?? ''} and that the target URL is a public https:// URL`
        : `the API refused the request as invalid (400)${ctx.hookId ? `: is "${ctx.hookId}" a hook id?` : ''}`;
    case 401:
      return 'the API refused the key (401): check CW_API_KEY';
    case 403:
      return 'this API key is not entitled to streaming (403): hooks need the streaming area';
    case 404:
      return ctx.operation === 'create'
        ? `no such search: ${ctx.searchId ?? ''} (404) for this company`
        : `no such hook: ${ctx.hookId ?? ''} (404)`;
    case 409:
      return `a hook already exists for search ${ctx.searchId ?? ''} and target ${ctx.targetUrl ?? ''} (409): list it with \`hooks list\``;
    default:
      return undefined;
  }
}

/** Maps an ApiError with a known status to a UserError (cause kept); anything else is returned as is. */
export function explainHookError(error: unknown, ctx: HookErrorContext): unknown {
  if (!(error instanceof ApiError) || error.status === undefined) return error;
  const message = hookErrorMessage(error.status, ctx);
  if (!message) return error;
  const id = error.requestId ? ` (X-Request-Id ${error.requestId})` : '';
  return new UserError(`hooks ${ctx.operation}: ${message}${id}`, { cause: error, exitCode: 1 });
}
