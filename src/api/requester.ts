import { FatalApiError } from './errors.js';
import { isRecord } from './is-record.js';
import { paginate } from './paginate.js';
import type { Call, Reply, SendContext } from './send-attempt.js';
import { sendWithRetry } from './send-with-retry.js';
import type { RawRecord } from './types.js';

/** The client's ways of calling the API, on which every endpoint is built. */
export interface Requester {
  /** One call with the client's policy (throttle, retries, typed errors). */
  call(c: Call): Promise<Reply>;
  /** A GET's parsed body. */
  get(path: string, query?: Call['query']): Promise<unknown>;
  /** A list endpoint, page by page (profile paging at the client's page size). */
  list(path: string, key: string, query?: Call['query']): AsyncGenerator<RawRecord[]>;
  /** `{<key>: {...}}` or the bare object (tolerated); anything else is a wrong shape. */
  unwrap(body: unknown, key: string, endpoint: string): RawRecord;
}

export function createRequester(ctx: SendContext, pageSize: number): Requester {
  const call = (c: Call) => sendWithRetry(ctx, c);
  const get = async (path: string, query?: Call['query']) =>
    (await call({ method: 'GET', path, ...(query ? { query } : {}) })).json;
  return {
    call,
    get,
    list: (path, key, query = {}) =>
      paginate((page) => get(path, { ...query, page, page_size: pageSize }), `GET ${path}`, key, pageSize),
    unwrap(body, key, endpoint) {
      const inner = isRecord(body) && isRecord(body[key]) ? body[key] : body;
      if (!isRecord(inner))
        throw new FatalApiError(`unexpected response on ${endpoint}: no ${key} object`, endpoint);
      return inner;
    },
  };
}
