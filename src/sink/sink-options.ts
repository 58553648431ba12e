import type { SinkWatchOptions } from '../notify/sink-watch.js';
import type { InboxDb } from '../state/inbox-db.js';
import type { Logger } from '../util/logger.js';
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
 * 30 s: each publish adds one Parquet part per stream table (merged per closed day by the
 * lake's upkeep), so publishing per delivery would leave thousands of tiny files and cost far
 * more than analysts gain; half a minute is fresh enough for dashboards.
 */
export const DEFAULT_PUBLISH_INTERVAL_MS = 30_000;

export interface SinkOptions {
  /** Folder of state.sqlite (hook registry), inbox.sqlite and warehouse.duckdb. */
  readonly dataDir: string;
  readonly host?: string;
  /** 0 = any free port (tests). */
  readonly port?: number;
  readonly bodyLimitBytes?: number;
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
}

/** SinkOptions with every default applied, validated once at the edge. */
export interface ResolvedSinkOptions {
  readonly dataDir: string;
  readonly host: string;
  readonly port: number;
  readonly bodyLimitBytes: number;
  readonly publishIntervalMs: number;
  readonly validateSchemas: boolean;
  readonly inboxBusyTimeoutMs: number;
}

export function resolveSinkOptions(options: SinkOptions): ResolvedSinkOptions {
  const resolved = {
    dataDir: options.dataDir,
    host: options.host ?? DEFAULT_SINK_HOST,
    port: options.port ?? DEFAULT_SINK_PORT,
    bodyLimitBytes: options.bodyLimitBytes ?? DEFAULT_BODY_LIMIT_BYTES,
    publishIntervalMs: options.publishIntervalMs ?? DEFAULT_PUBLISH_INTERVAL_MS,
    validateSchemas: options.validateSchemas ?? true,
    inboxBusyTimeoutMs: options.inboxBusyTimeoutMs ?? DEFAULT_INBOX_BUSY_TIMEOUT_MS,
  };
  if (!Number.isInteger(resolved.port) || resolved.port < 0 || resolved.port > 65_535)
    throw new RangeError(`sink: port must be an integer 0..65535, got ${resolved.port}`);
  if (!Number.isInteger(resolved.bodyLimitBytes) || resolved.bodyLimitBytes < 1)
    throw new RangeError(`sink: body limit must be a positive integer, got ${resolved.bodyLimitBytes}`);
  if (!Number.isFinite(resolved.publishIntervalMs) || resolved.publishIntervalMs < 0)
    throw new RangeError(`sink: publish interval must be >= 0 ms, got ${resolved.publishIntervalMs}`);
  if (!Number.isInteger(resolved.inboxBusyTimeoutMs) || resolved.inboxBusyTimeoutMs < 0)
    throw new RangeError(
      `sink: inbox busy timeout must be an integer >= 0 ms, got ${resolved.inboxBusyTimeoutMs}`,
    );
  return resolved;
}
