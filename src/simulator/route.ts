/**
 * Contract between the simulator's HTTP core (server, auth, rate limit, faults, paging
 * helpers, introspection) and the modules that serve its endpoints.
 */
import type { IncomingHttpHeaders } from 'node:http';

/** Which entitlement a route needs: a key may be entitled to some areas only (else 403). */
export type Area = 'influencers' | 'streaming' | 'searches';

export interface SimRequest {
  readonly method: string;
  /** Path without the query string, e.g. /v3/hooks/abc. */
  readonly path: string;
  readonly query: URLSearchParams;
  readonly headers: IncomingHttpHeaders;
  /** Raw request body (empty Buffer when none). */
  readonly body: Buffer;
  readonly requestId: string;
  /** The simulated time of the request (settable clock). */
  readonly now: Date;
}

export interface SimResponse {
  readonly status: number;
  readonly headers?: Readonly<Record<string, string>>;
  /** Serialized as JSON; undefined means no body (e.g. 204). */
  readonly body?: unknown;
}

export interface SimRoute {
  readonly area: Area;
  readonly method: 'GET' | 'POST' | 'DELETE';
  /** Matched against SimRequest.path; capture groups are passed to handle(). */
  readonly pattern: RegExp;
  handle(req: SimRequest, params: readonly string[]): SimResponse | Promise<SimResponse>;
}
