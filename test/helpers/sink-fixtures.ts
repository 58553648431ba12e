import { createHmac } from 'node:crypto';
import { hookPath, newPathToken } from '../../src/sink/hook-path.js';
import { hooks } from '../../src/state/schema.js';
import { openStateDb } from '../../src/state/state-db.js';

/** A fresh data folder in the temp dir; remove() deletes it. */
export interface TestHook {
  readonly hookId: string;
  readonly secret: string;
  readonly pathToken: string;
  readonly searchId: number;
  readonly searchType: string;
}

/** Registers a hook in <dataDir>/state.sqlite the way `hooks create` will (drizzle insert). */
export function insertHook(dataDir: string, hook: Partial<TestHook> = {}): TestHook {
  const full: TestHook = {
    hookId: hook.hookId ?? `hook-${newPathToken().slice(0, 8)}`,
    secret: hook.secret ?? 'test-secret-of-at-least-32-chars!!',
    pathToken: hook.pathToken ?? newPathToken(),
    searchId: hook.searchId ?? 7,
    searchType: hook.searchType ?? 'editorial',
  };
  const state = openStateDb(dataDir);
  try {
    state.db
      .insert(hooks)
      .values({
        hookId: full.hookId,
        searchId: full.searchId,
        searchType: full.searchType,
        targetUrl: `https://sink.example${hookPath(full.pathToken)}`,
        pathToken: full.pathToken,
        secret: full.secret,
        status: 'ACTIVE',
        updated: '2026-11-21T08:00:00Z',
        version: '1',
        createdAt: '2026-11-21T08:00:00Z',
      })
      .run();
  } finally {
    state.close();
  }
  return full;
}

/** A small editorial document with the profile's fields. */
export function sampleDocument(id: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id,
    published_date: '2026-11-20T08:00:00Z',
    indexed_date: '2026-11-20T08:05:00Z',
    url: `https://news.example/${id}`,
    external_id: `ext-${id}`,
    source: { id: 's1', name: 'Daily News', information_type: 'editorial' },
    content: { title: `Title ${id}`, opening_text: 'Once upon a time' },
    language: 'en',
    country: 'GB',
    publisher: 'Daily News Ltd',
    ...extra,
  };
}

/** The JSON body of one delivery of `documents` to `hook`. */
export function deliveryBody(hook: TestHook, documents: unknown[]): string {
  return JSON.stringify({
    request: { hook_id: hook.hookId, search_id: hook.searchId, company_id: 'c1' },
    documents,
  });
}

/** Both signature headers of `body` (independent of the code under test: plain createHmac). */
export function signatureHeaders(secret: string, body: string | Buffer): Record<string, string> {
  return {
    'x-hub-signature': `sha1=${createHmac('sha1', secret).update(body).digest('hex')}`,
    'x-hub-signature-256': `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`,
  };
}

/** POSTs a signed delivery to the hook's path on the sink; returns the status. */
export async function postDelivery(
  baseUrl: string,
  hook: TestHook,
  body: string,
  headers: Record<string, string> = signatureHeaders(hook.secret, body),
): Promise<number> {
  const response = await fetch(`${baseUrl}${hookPath(hook.pathToken)}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
  });
  await response.arrayBuffer();
  return response.status;
}
