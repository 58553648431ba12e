/**
 * Contract of the API client (implemented in src/api/). Everything the extractor, the hook
 * commands and the demo need from the remote API goes through this interface.
 */

/** A record as the API sent it: parsed JSON, not validated; normalization copes with drift. */
export type RawRecord = Record<string, unknown>;

/** The `tags` / `sources` filters of a segment; empty or absent means "no filter". */
export interface SegmentFilter {
  readonly tags?: readonly string[];
  readonly sources?: readonly string[];
}

export type SearchType = 'social' | 'editorial' | 'broadcast';

export interface Hook {
  hook_id: string;
  search_id: number;
  target_url: string;
  search_type: string;
  updated?: string;
  version?: string;
  status?: string;
  [extra: string]: unknown;
}

/** What the client reports as it works: drives progress displays, logs and run counters. */
export type ApiEvent =
  | { type: 'request'; method: string; endpoint: string; status: number; requestId?: string; ms: number }
  | { type: 'retry'; endpoint: string; attempt: number; delayMs: number; reason: string; requestId?: string }
  | {
      type: 'throttled';
      endpoint: string;
      waitMs: number;
      capped: boolean;
      /** overload: the server was busy; rate-limit: the client's rate was too high (see throttle.ts). */
      kind: 'overload' | 'rate-limit';
      requestId?: string;
    }
  /** RateLimit-Remaining 0 on a reply that is not a 429: every request pauses until RateLimit-Reset (capped). */
  | { type: 'paused'; endpoint: string; waitMs: number; capped: boolean; requestId?: string }
  /** The throttle changed its rate (requests/s) or burst, and why. */
  | { type: 'rate'; rps: number; reason: string };

export interface ApiStats {
  requests: number;
  retries: number;
  /** 429 responses received: `overloaded` + `rateLimited`. */
  readonly throttled: number;
  /** 429s of an overloaded server (not about our rate). */
  overloaded: number;
  /** 429s saying our rate was too high (RateLimit-Remaining 0, or taken as evidence of it). */
  rateLimited: number;
  /** Total time requests spent paused by 429 / rate-limit headers: the two below. */
  readonly throttleWaitMs: number;
  /** Pauses asked by overload 429s. */
  overloadWaitMs: number;
  /** Pauses asked by rate-limit 429s and RateLimit-Remaining 0. */
  rateLimitWaitMs: number;
  /** The throttle's rate now (requests/s) and why it is that. */
  readonly rateRps: number;
  readonly rateReason: string;
}

export interface ApiClientOptions {
  /** https:// or a loopback http:// URL, without the /v3 suffix. */
  readonly baseUrl: string;
  /** Sent as header `apikey`; never logged, never part of an error. */
  readonly apiKey: string;
  /** Extra trusted CA (PEM), e.g. the simulator's self-signed certificate. */
  readonly ca?: string | Buffer;
  readonly rps: number;
  readonly concurrency: number;
  readonly pageSize?: number;
  readonly maxRetries?: number;
  /** First backoff step after a transient failure (full jitter, doubling, capped at 30 s). */
  readonly retryBaseMs?: number;
  /** Longest silence before the headers or between body bytes, ms. */
  readonly timeoutMs?: number;
  /** Headers and whole body of one response must arrive within this, ms (a timeout past it: retried). */
  readonly responseDeadlineMs?: number;
  /** Longest pause a Retry-After may impose; longer values are capped and reported. */
  readonly maxRetryAfterMs?: number;
  /**
   * Stops every call at once (a request in flight is torn down, a pause or backoff cut
   * short): the call rejects with the signal's reason. The sync's SIGINT / SIGTERM.
   */
  readonly signal?: AbortSignal;
  readonly onEvent?: (event: ApiEvent) => void;
}

export interface ApiClient {
  /** Each list method yields the records of one page at a time (never the whole list). */
  workspaces(): AsyncIterable<RawRecord[]>;
  tags(): AsyncIterable<RawRecord[]>;
  campaigns(): AsyncIterable<RawRecord[]>;
  /** The campaign object, unwrapped from `{campaign: ...}` when wrapped. */
  campaign(campaignId: string, filter?: SegmentFilter): Promise<RawRecord>;
  campaignPosts(campaignId: string, filter?: SegmentFilter): AsyncIterable<RawRecord[]>;
  campaignInfluencers(campaignId: string, filter?: SegmentFilter): AsyncIterable<RawRecord[]>;

  listHooks(): Promise<Hook[]>;
  getHook(hookId: string): Promise<Hook>;
  /** `secret` is sent as X-Hook-Secret; the returned secret is the X-Hook-Secret response header. */
  createHook(input: { searchId: number; targetUrl: string; companyId?: string; secret?: string }): Promise<{
    hook: Hook;
    secret: string | undefined;
  }>;
  deleteHook(hookId: string): Promise<void>;
  schema(type: SearchType): Promise<unknown>;
  searches(): Promise<unknown>;

  readonly stats: Readonly<ApiStats>;
  close(): Promise<void>;
}
