/** Paging of list endpoints per api-profile.md: `page` (1-based), `page_size` (default 10, max 100). */

import { errorResponse } from './error-response.js';
import type { SimResponse } from './route.js';

/** The profile's default page size. */
export const DEFAULT_PAGE_SIZE = 10;
/** The profile's largest page size; larger requests are clamped to it. */
export const MAX_PAGE_SIZE = 100;

export interface Paging {
  readonly page: number;
  readonly pageSize: number;
}

/** Reads `page` and `page_size`; a value that is not a positive integer is a 400. */
export function parsePaging(query: URLSearchParams): Paging | SimResponse {
  const page = positiveInt(query.get('page'), 1);
  const pageSize = positiveInt(query.get('page_size'), DEFAULT_PAGE_SIZE);
  if (page === undefined || pageSize === undefined) {
    return errorResponse(
      400,
      'invalid_request',
      'Invalid paging',
      'page and page_size must be positive integers',
    );
  }
  return { page, pageSize: Math.min(pageSize, MAX_PAGE_SIZE) };
}

/** `{[key]: items of the page, page, page_size, total}`. */
export function pageBody<T>(key: string, items: readonly T[], paging: Paging): Record<string, unknown> {
  const start = (paging.page - 1) * paging.pageSize;
  return {
    [key]: items.slice(start, start + paging.pageSize),
    page: paging.page,
    page_size: paging.pageSize,
    total: items.length,
  };
}

export function isPaging(value: Paging | SimResponse): value is Paging {
  return 'pageSize' in value;
}

function positiveInt(raw: string | null, fallback: number): number | undefined {
  if (raw === null || raw === '') return fallback;
  if (!/^\d+$/.test(raw)) return undefined;
  const n = Number(raw);
  return n >= 1 && Number.isSafeInteger(n) ? n : undefined;
}
