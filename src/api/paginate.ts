/**
 * Profile paging (api-profile.md): `page` (1-based) and `page_size`; the response carries
 * the array under its key plus `page`, `page_size`, `total`. Tolerant: a response without
 * paging fields is one complete page; a page shorter than page_size is the last; stop at
 * `total` items or at an empty page. Guarded: a page repeating an earlier one (same first and last id), or more
 * pages than `total` allows, is a loop (a real server may misbehave) and fails the request.
 */
import { stringifyExact } from '../util/parse-json-exact.js';
import { FatalApiError } from './errors.js';
import { isRecord } from './is-record.js';
import type { RawRecord } from './types.js';

/** Slack over ceil(total / page_size) before paging counts as a loop. */
const EXTRA_PAGES = 2;

export async function* paginate(
  fetchPage: (page: number) => Promise<unknown>,
  endpoint: string,
  key: string,
  pageSize: number,
): AsyncGenerator<RawRecord[]> {
  let seen = 0;
  /** The page budget from the smallest `total` announced: a total growing as we page cannot extend it. */
  let maxPages = Number.POSITIVE_INFINITY;
  /** first|last id of every page so far: a repeat means the server cycles (A, B, A, ...). */
  const signatures = new Map<string, number>();
  for (let page = 1; ; page++) {
    const body = await fetchPage(page);
    const items = isRecord(body) ? body[key] : undefined;
    if (!Array.isArray(items)) {
      throw new FatalApiError(`unexpected response on ${endpoint}: no "${key}" array`, endpoint);
    }
    if (items.length === 0) return;
    const signature = `${idOf(items[0])}|${idOf(items[items.length - 1])}`;
    const earlier = signatures.get(signature);
    if (earlier !== undefined) {
      throw new FatalApiError(
        `loop detected in pagination on ${endpoint}: page ${page} repeats page ${earlier}`,
        endpoint,
      );
    }
    signatures.set(signature, page);
    // An item that is no object (null, a number, a string) has no field to store: skipped, as
    // the normalizers skip a record without an id. The page's length still counts for paging.
    yield items.every(isRecord) ? (items as RawRecord[]) : items.filter(isRecord);
    seen += items.length;
    const b = body as Record<string, unknown>;
    if (b.page === undefined && b.page_size === undefined && b.total === undefined) return;
    const size = Number(b.page_size) || pageSize;
    const total = b.total === undefined || b.total === null ? undefined : Number(b.total);
    if (items.length < size) return;
    if (total !== undefined && Number.isFinite(total)) {
      if (seen >= total) return;
      maxPages = Math.min(maxPages, Math.ceil(total / size) + EXTRA_PAGES);
      if (page >= maxPages) {
        throw new FatalApiError(
          `loop detected in pagination on ${endpoint}: more than ${page} pages for ${total} items`,
          endpoint,
        );
      }
    }
  }
}

function idOf(item: unknown): string {
  // A bare item may hold a bigint (a big integer literal: parseJsonExact), which JSON.stringify refuses.
  if (!isRecord(item)) return stringifyExact(item);
  // An id that is an object may hold its own toString, which String() would call (and fail on).
  const id = item.id;
  return typeof id === 'object' && id !== null ? stringifyExact(id) : String(id);
}
