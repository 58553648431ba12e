/** The four hook operations of api-v3.md (area 'streaming') over a HookStore and the delivery engine. */

import { errorResponse } from '../error-response.js';
import { isPaging, pageBody, parsePaging } from '../paging.js';
import type { SimRequest, SimResponse, SimRoute } from '../route.js';
import { parseCreateHook } from './create-hook-request.js';
import type { DeliveryEngine } from './delivery-engine.js';
import { type HookStore, toHookBody } from './hook-store.js';
import type { PredefinedSearch } from './searches.js';

export interface HookRoutesContext {
  readonly store: HookStore;
  readonly engine: DeliveryEngine;
  readonly searches: readonly PredefinedSearch[];
  readonly defaultCompanyId: string;
  /** A new secret when the caller sent none. */
  generateSecret(): string;
}

const COLLECTION = /^\/v3\/hooks\/?$/;
const ONE_HOOK = /^\/v3\/hooks\/([^/]+)\/?$/;

export function createHookRoutes(ctx: HookRoutesContext): readonly SimRoute[] {
  return [
    { area: 'streaming', method: 'GET', pattern: COLLECTION, handle: (req) => listHooks(ctx, req) },
    { area: 'streaming', method: 'POST', pattern: COLLECTION, handle: (req) => createHook(ctx, req) },
    {
      // api-v3.md lists 400 "required parameters missing" for DELETE: the hook_id was left out.
      area: 'streaming',
      method: 'DELETE',
      pattern: COLLECTION,
      handle: () =>
        errorResponse(400, 'invalid_request', 'Invalid request', 'hook_id is required in the path', {
          field: 'hook_id',
        }),
    },
    {
      area: 'streaming',
      method: 'GET',
      pattern: ONE_HOOK,
      handle: (_req, params) => {
        const record = ctx.store.get(decode(params[0]));
        return record ? { status: 200, body: { hook: toHookBody(record) } } : hookNotFound(params[0]);
      },
    },
    {
      area: 'streaming',
      method: 'DELETE',
      pattern: ONE_HOOK,
      handle: (_req, params) => {
        const hookId = decode(params[0]);
        if (!ctx.store.delete(hookId)) return hookNotFound(params[0]);
        ctx.engine.stop(hookId);
        return { status: 204 };
      },
    },
  ];
}

function listHooks(ctx: HookRoutesContext, req: SimRequest): SimResponse {
  const paging = parsePaging(req.query);
  if (!isPaging(paging)) return paging;
  return { status: 200, body: pageBody('hooks', ctx.store.list().map(toHookBody), paging) };
}

function createHook(ctx: HookRoutesContext, req: SimRequest): SimResponse {
  const input = parseCreateHook(req.body, req.headers, req.query);
  if (!('searchId' in input)) return input;
  const search = ctx.searches.find((s) => s.id === input.searchId);
  if (!search) {
    return errorResponse(404, 'not_found', 'Search not found', `No search with id ${input.searchId}`, {
      search_id: input.searchId,
    });
  }
  const existing = ctx.store.findLive(input.searchId, input.normalizedTarget);
  if (existing) {
    return errorResponse(
      409,
      'conflict',
      'Hook already exists',
      'A hook already exists for this search_id and target_url',
      { hook_id: existing.hookId },
    );
  }
  const secret = input.secret ?? ctx.generateSecret();
  const record = ctx.store.create(
    {
      searchId: search.id,
      searchType: search.search_type,
      targetUrl: input.targetUrl,
      normalizedTarget: input.normalizedTarget,
      companyId: input.companyId ?? ctx.defaultCompanyId,
      secret,
    },
    req.now,
  );
  ctx.engine.start(record);
  return { status: 201, headers: { 'X-Hook-Secret': secret }, body: toHookBody(record) };
}

function hookNotFound(rawId: string | undefined): SimResponse {
  return errorResponse(404, 'not_found', 'Hook not found', 'No hook with this id', {
    hook_id: decode(rawId),
  });
}

function decode(raw: string | undefined): string {
  try {
    return decodeURIComponent(raw ?? '');
  } catch {
    return raw ?? '';
  }
}
