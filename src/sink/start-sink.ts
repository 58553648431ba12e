import { type SinkWatch, startSinkWatch } from '../notify/sink-watch.js';
import { listenFailure } from '../util/listen-failure.js';
import { createLogger, type Logger } from '../util/logger.js';
import type { LoadResult } from './loader.js';
import { holdSinkLock } from './sink-lock.js';
import type { DeliveryOutcome } from './sink-metrics.js';
import { type ResolvedSinkOptions, resolveSinkOptions, type SinkOptions } from './sink-options.js';
import { createSinkParts, type SinkInjections, type SinkParts } from './sink-parts.js';
import { createSinkServer, type SinkServer } from './sink-server.js';

export interface SinkStats {
  readonly outcomes: Record<DeliveryOutcome, number>;
  /** Acknowledged deliveries not yet published. */
  readonly backlog: number;
  /** Deliveries set aside by the loader (kept in the inbox). */
  readonly quarantined: number;
  readonly commits: number;
  readonly committed: number;
  readonly publishes: number;
  readonly publishFailures: number;
  /** ISO-8601 time of the last successful publish (the inbox's, so also an earlier run's), null before the first. */
  readonly lastPublishAt: string | null;
  /** Client connections open now. */
  readonly openConnections: number;
  /** Request-body bytes held now (claimed from the body budget). */
  readonly bodyBytesInFlight: number;
}

export interface RunningSink {
  /** Base URL, e.g. http://127.0.0.1:8787 (a hook's target URL is this + hookPath(token) behind the proxy). */
  readonly url: string;
  readonly port: number;
  /** Publishes every acknowledged delivery not yet in the warehouse now; rejects if the publish fails. */
  publishNow(): Promise<LoadResult>;
  stats(): SinkStats;
  /**
   * Runs the notifications' watch now (it runs every WATCH_EVERY_MS anyway; tests call it): its
   * checks run at once, the remote's (asynchronous) by the time the promise resolves.
   */
  checkHealthNow(): Promise<void>;
  /**
   * Graceful stop: stop accepting connections, let in-flight requests finish (their commits
   * included), publish what is pending (a failure is logged: the rows stay in the inbox for
   * the next start), close the databases.
   */
  close(): Promise<void>;
}

/**
 * Starts the push sink: `POST /hooks/<path_token>` (see handle-delivery.ts), `GET /healthz`
 * and `GET /metrics`, with the durable inbox (inbox-writer.ts) and the loader on a thread of
 * its own (loader-thread.ts). A test that injects `publish` gets the loader in-process instead;
 * one that injects `loaderWorker` gets the loader's thread started from that script.
 */
export async function startSink(options: SinkOptions, inject: SinkInjections = {}): Promise<RunningSink> {
  const o = resolveSinkOptions(options);
  const logger = options.logger ?? createLogger('sink');
  const lock = holdSinkLock(o.dataDir);
  // The metrics count the server's connections; the server, made second, routes to the parts.
  let counted: SinkServer | undefined;
  let parts: SinkParts;
  let server: SinkServer;
  let port: number;
  try {
    parts = createSinkParts(o, options, logger, inject, () => counted?.openConnections() ?? 0);
    server = createSinkServer(o, parts, logger);
    counted = server;
    port = await listenOrClose(server, o, parts);
  } catch (error) {
    lock.release();
    throw error;
  }
  const watch = options.notify && startWatch(options.notify, o, parts, logger);
  const host = o.host.includes(':') ? `[${o.host}]` : o.host;
  let closed: Promise<void> | undefined;
  return {
    url: `http://${host}:${port}`,
    port,
    publishNow: () => parts.loader.loadNow(),
    checkHealthNow: async () => watch?.tick(),
    stats: () => statsOf(parts, server),
    close: () => {
      closed ??= closeSink(server, parts, watch, logger).finally(() => lock.release());
      return closed;
    },
  };
}

/** Listens; a sink that cannot (port taken, address not local) stops its loader and closes its databases. */
async function listenOrClose(server: SinkServer, o: ResolvedSinkOptions, parts: SinkParts): Promise<number> {
  try {
    return await server.listen();
  } catch (error) {
    await parts.loader.stop();
    await parts.loader.close();
    parts.inbox.close();
    parts.state.close();
    throw listenFailure(error, 'sink', o.host, o.port);
  }
}

/** The notifications' watch of the sink (publishes failing, backlog, refusals, disk). */
function startWatch(
  notify: NonNullable<SinkOptions['notify']>,
  o: ResolvedSinkOptions,
  parts: SinkParts,
  logger: Logger,
): SinkWatch {
  return startSinkWatch({
    ...notify,
    dataDir: o.dataDir,
    logger,
    health: parts.health,
    backlog: () => parts.progress.backlog(),
    refusals: () => parts.metrics.outcomes().inbox_unavailable,
    commits: () => parts.writer.stats().commits,
    quarantined: () => parts.progress.quarantined(),
    remote: o.remote?.url,
  });
}

function statsOf(parts: SinkParts, server: SinkServer): SinkStats {
  return {
    outcomes: parts.metrics.outcomes(),
    backlog: parts.progress.backlog(),
    quarantined: parts.progress.quarantined(),
    ...parts.writer.stats(),
    publishes: parts.publishes.done,
    publishFailures: parts.publishes.failed,
    lastPublishAt: parts.progress.lastPublishAt(),
    openConnections: server.openConnections(),
    bodyBytesInFlight: parts.budget.heldBytes,
  };
}

/** See RunningSink.close. */
async function closeSink(
  server: SinkServer,
  parts: SinkParts,
  watch: SinkWatch | undefined,
  logger: Logger,
): Promise<void> {
  watch?.stop();
  await server.close();
  await parts.writer.close();
  await parts.loader.stop();
  try {
    await parts.loader.loadNow();
  } catch (error) {
    logger.error(
      { err: (error as Error).message },
      'sink: final publish failed; deliveries stay in the inbox',
    );
  }
  await parts.loader.close();
  parts.inbox.close();
  parts.state.close();
}
