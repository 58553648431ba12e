import type { RemoteConfig } from '../config/remote-config.js';
import type { SinkWatchOptions } from '../notify/sink-watch.js';
import type { InboxDb } from '../state/inbox-db.js';
import { PORT, withinBounds } from '../util/bounded-number.js';
import { MAX_JSON_DEPTH } from '../util/json-depth.js';
import type { Logger } from '../util/logger.js';
import { UserError } from '../util/user-error.js';
import { budgetForBody } from './body-budget.js';
import { DEFAULT_INBOX_BUSY_TIMEOUT_MS } from './inbox-writer.js';

/** Loopback by default: the sink is meant to sit behind a TLS-terminating reverse proxy. */
export const DEFAULT_SINK_HOST = '127.0.0.1';

/** An unprivileged port unlikely to clash with common local services. */
export const DEFAULT_SINK_PORT = 8787;

/**
 * 10 MiB: far above a real delivery (a few documents of a few KB each), small enough that a
 * hostile sender cannot make the sink buffer much before the signature check.
 */
export const DEFAULT_BODY_LIMIT_BYTES = 10 * 1024 * 1024;

/**
 * How deeply a body may nest arrays and objects (the `{"documents": [...]}` envelope counts
 * two): a document of the API nests a handful deep, while one nested thousands deep would
 * overflow the stack of whatever walks it recursively after acknowledgement (JSON.stringify,
 * schema validation). The shared limit of JSON this tool reads (json-depth.ts).
 */
export const DEFAULT_BODY_DEPTH_LIMIT = MAX_JSON_DEPTH;

/**
 * 64 MiB: the most request-body bytes the sink holds at once, summed over every request in
 * flight (bodies are buffered whole: the signature covers the exact bytes, and only a verified
 * body is stored). A request that would take more is answered 503 with Retry-After before its
 * body is read (see body-budget.ts). 64 MiB keeps the sink's peak memory a small part of a
 * 2 GB host, while still holding six bodies at the 10 MiB limit beside thousands of genuine
 * deliveries (a few KB each).
 */
export const DEFAULT_BODY_BUDGET_BYTES = 64 * 1024 * 1024;

/**
 * 10 s to receive a request's headers: a sender writes them in one packet at once, so 10 s is
 * far more than any real network needs, and a connection that trickles them is closed after
 * 10-11 s (Node's own default is 60 s, checked only every 30 s).
 */
export const DEFAULT_HEADERS_TIMEOUT_MS = 10_000;

/**
 * 30 s to receive a whole request, headers and body: a real delivery (a few KB) arrives in
 * milliseconds, and even a body at the 10 MiB limit needs only ~3 Mbit/s; a sender dribbling
 * its body cannot hold a connection and a share of the body budget for Node's 5 minutes.
 */
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;

/**
 * 5 s of idle keep-alive (Node's default): a sender pushing a burst reuses its connection, and
 * learns the timeout from the Keep-Alive header (so it does not reuse one being closed), while
 * idle connections do not hold places under the connection cap for long.
 */
export const DEFAULT_KEEP_ALIVE_TIMEOUT_MS = 5_000;

/**
 * 4,096 connections at once: far above real push traffic (the API opens a few), and bounded in
 * memory: each connection costs a few KB, at most 16 KB of headers (Node's header limit) while
 * its request head arrives, so the cap keeps that under ~100 MB. A connection over the cap is
 * closed at once (the sender sees a reset and retries). Mind the open-file limit: it must
 * exceed this plus the sink's own files (see docs/deploy.md).
 */
export const DEFAULT_MAX_CONNECTIONS = 4_096;

/**
 * 30 s: each publish adds one Parquet part per stream table (merged per closed day by the
 * lake's upkeep), so publishing per delivery would leave thousands of tiny files and cost far
 * more than analysts gain; half a minute is fresh enough for dashboards.
 */
export const DEFAULT_PUBLISH_INTERVAL_MS = 30_000;

/**
 * The deepest --depth-limit: past a few thousand levels, the recursive walks the limit guards
 * against (JSON.stringify, schema validation) overflow their stack on this Node.
 */
export const MAX_BODY_DEPTH_LIMIT = 1_000;

/** The longest timeout: an hour (a timer's 2^31 ms is far beyond any sensible one). */
export const MAX_TIMEOUT_MS = 3_600_000;

export interface SinkOptions {
  /** Folder of state.sqlite (hook registry), inbox.sqlite and warehouse.duckdb. */
  readonly dataDir: string;
  readonly host?: string;
  /** 0 = any free port (tests). */
  readonly port?: number;
  readonly bodyLimitBytes?: number;
  /** The deepest nesting of arrays and objects a body may have (400 beyond: see DEFAULT_BODY_DEPTH_LIMIT). */
  readonly bodyDepthLimit?: number;
  /** The most body bytes held at once over all requests in flight (see DEFAULT_BODY_BUDGET_BYTES). */
  readonly bodyBudgetBytes?: number;
  /** Longest time to receive a request's headers (0 = none). */
  readonly headersTimeoutMs?: number;
  /** Longest time to receive a whole request, headers and body (0 = none). */
  readonly requestTimeoutMs?: number;
  /** How long an idle keep-alive connection stays open. */
  readonly keepAliveTimeoutMs?: number;
  /** The most connections open at once; more are closed at once (0 = no cap). */
  readonly maxConnections?: number;
  /** Longest time from acknowledgement to publication in the warehouse. */
  readonly publishIntervalMs?: number;
  readonly logger?: Logger;
  /** Validate documents against <dataDir>/schemas/<type>_streaming.json (default: when present). */
  readonly validateSchemas?: boolean;
  /** Opens the loader's inbox handle (default openInboxDb): tests watch the inbox through it. */
  readonly openInbox?: (dataDir: string) => InboxDb;
  /** How long an inbox commit waits for another writer's lock before the sink answers 503. */
  readonly inboxBusyTimeoutMs?: number;
  /** Notifications (src/notify/): the sink's watch opens and closes its incidents through this notifier. */
  readonly notify?: Pick<SinkWatchOptions, 'notifier' | 'everyMs' | 'publishFailingAfterMs' | 'diskLimits'>;
  /** The remote lake each publish is also committed to (docs/remote.md); off when absent. */
  readonly remote?: RemoteConfig;
}

/** SinkOptions with every default applied, validated once at the edge. */
export interface ResolvedSinkOptions {
  readonly dataDir: string;
  readonly host: string;
  readonly port: number;
  readonly bodyLimitBytes: number;
  readonly bodyDepthLimit: number;
  readonly bodyBudgetBytes: number;
  readonly headersTimeoutMs: number;
  readonly requestTimeoutMs: number;
  readonly keepAliveTimeoutMs: number;
  readonly maxConnections: number;
  readonly publishIntervalMs: number;
  readonly validateSchemas: boolean;
  readonly inboxBusyTimeoutMs: number;
  readonly remote?: RemoteConfig;
}

export function resolveSinkOptions(options: SinkOptions): ResolvedSinkOptions {
  const resolved = {
    dataDir: options.dataDir,
    host: options.host ?? DEFAULT_SINK_HOST,
    port: options.port ?? DEFAULT_SINK_PORT,
    bodyLimitBytes: options.bodyLimitBytes ?? DEFAULT_BODY_LIMIT_BYTES,
    bodyDepthLimit: options.bodyDepthLimit ?? DEFAULT_BODY_DEPTH_LIMIT,
    bodyBudgetBytes: options.bodyBudgetBytes ?? DEFAULT_BODY_BUDGET_BYTES,
    headersTimeoutMs: options.headersTimeoutMs ?? DEFAULT_HEADERS_TIMEOUT_MS,
    requestTimeoutMs: options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
    keepAliveTimeoutMs: options.keepAliveTimeoutMs ?? DEFAULT_KEEP_ALIVE_TIMEOUT_MS,
    maxConnections: options.maxConnections ?? DEFAULT_MAX_CONNECTIONS,
    publishIntervalMs: options.publishIntervalMs ?? DEFAULT_PUBLISH_INTERVAL_MS,
    validateSchemas: options.validateSchemas ?? true,
    inboxBusyTimeoutMs: options.inboxBusyTimeoutMs ?? DEFAULT_INBOX_BUSY_TIMEOUT_MS,
    ...(options.remote ? { remote: options.remote } : {}),
  };
  if (!withinBounds(resolved.port, PORT))
    throw new RangeError(`sink: port must be an integer ${PORT.min}..${PORT.max}, got ${resolved.port}`);
  if (!withinBounds(resolved.bodyLimitBytes, { min: 1, integer: true }))
    throw new RangeError(`sink: body limit must be a positive integer, got ${resolved.bodyLimitBytes}`);
  if (!withinBounds(resolved.bodyDepthLimit, { min: 2, max: MAX_BODY_DEPTH_LIMIT, integer: true }))
    throw new RangeError(
      `sink: the depth limit (--depth-limit) must be an integer 2..${MAX_BODY_DEPTH_LIMIT}, got ${resolved.bodyDepthLimit}`,
    );
  const fewestBudgetBytes = budgetForBody(resolved.bodyLimitBytes);
  if (!withinBounds(resolved.bodyBudgetBytes, { min: fewestBudgetBytes, integer: true }))
    throw new RangeError(
      `sink: the body budget (--body-budget) must hold one body at the body limit (${resolved.bodyLimitBytes} bytes) ` +
        `beside the share kept for small deliveries: at least ${fewestBudgetBytes} bytes, got ${resolved.bodyBudgetBytes}`,
    );
  for (const [name, ms] of [
    ['headers timeout', resolved.headersTimeoutMs],
    ['request timeout', resolved.requestTimeoutMs],
    ['keep-alive timeout', resolved.keepAliveTimeoutMs],
  ] as const)
    if (!withinBounds(ms, { min: 0, max: MAX_TIMEOUT_MS, integer: true }))
      throw new RangeError(`sink: ${name} must be an integer 0..${MAX_TIMEOUT_MS} ms, got ${ms}`);
  if (
    resolved.requestTimeoutMs > 0 &&
    resolved.headersTimeoutMs > 0 &&
    resolved.headersTimeoutMs > resolved.requestTimeoutMs
  )
    throw new RangeError(
      `sink: the headers timeout (--headers-timeout, ${resolved.headersTimeoutMs} ms) must not exceed the request ` +
        `timeout (--request-timeout, ${resolved.requestTimeoutMs} ms): the headers are part of the request`,
    );
  if (!withinBounds(resolved.maxConnections, { min: 0, integer: true }))
    throw new RangeError(`sink: max connections must be an integer >= 0, got ${resolved.maxConnections}`);
  if (!withinBounds(resolved.publishIntervalMs, { min: 0 }))
    throw new RangeError(`sink: publish interval must be >= 0 ms, got ${resolved.publishIntervalMs}`);
  if (!withinBounds(resolved.inboxBusyTimeoutMs, { min: 0, integer: true }))
    throw new RangeError(
      `sink: inbox busy timeout must be an integer >= 0 ms, got ${resolved.inboxBusyTimeoutMs}`,
    );
  return resolved;
}

/**
 * The options' checks for a command line, made before anything starts: a bad value, or a bad
 * pair (the body budget against the body limit, the headers timeout within the request
 * timeout), is a UserError naming the flag.
 */
export function checkSinkFlags(options: Omit<SinkOptions, 'dataDir'>): void {
  try {
    resolveSinkOptions({ dataDir: '.', ...options });
  } catch (error) {
    if (error instanceof RangeError) throw new UserError(error.message);
    throw error;
  }
}
