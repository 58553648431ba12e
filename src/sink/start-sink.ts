import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { registerHealthMetrics } from '../notify/health-metrics.js';
import { SinkHealth, startSinkWatch } from '../notify/sink-watch.js';
import { loadDataCheckRecord } from '../state/data-check-record.js';
import { INBOX_DB_FILE, type InboxDb, openInboxDb } from '../state/inbox-db.js';
import { openStateDb, type StateDb } from '../state/state-db.js';
import { listenFailure } from '../util/listen-failure.js';
import { createLogger } from '../util/logger.js';
import { BodyBudget } from './body-budget.js';
import { guardConnections, LISTEN_BACKLOG, serverOptions } from './guard-connections.js';
import { handleDelivery, reply } from './handle-delivery.js';
import { parseHookPath } from './hook-path.js';
import { HookRegistry } from './hook-registry.js';
import { InboxProgress } from './inbox-progress.js';
import { InboxWriter } from './inbox-writer.js';
import { Loader, type LoadResult, type PublishStream, type SinkLoader } from './loader.js';
import { LoaderThread } from './loader-thread.js';
import { SchemaValidators } from './schema-validators.js';
import { type DeliveryOutcome, type SinkGaugeSources, SinkMetrics } from './sink-metrics.js';
import { resolveSinkOptions, type SinkOptions } from './sink-options.js';
import { ThrottledNotice } from './throttled-notice.js';

export interface SinkStats {
  readonly outcomes: Record<DeliveryOutcome, number>;
  /** Acknowledged deliveries not yet published. */
  readonly backlog: number;
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
  /** Runs the notifications' watch now (it runs every WATCH_EVERY_MS anyway; tests call it). */
  checkHealthNow(): void;
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
export async function startSink(
  options: SinkOptions,
  inject: { publish?: PublishStream; loaderWorker?: string } = {},
): Promise<RunningSink> {
  const o = resolveSinkOptions(options);
  const logger = options.logger ?? createLogger('sink');
  const state: StateDb = openStateDb(o.dataDir);
  let inbox: InboxDb;
  try {
    inbox = (options.openInbox ?? openInboxDb)(o.dataDir);
  } catch (error) {
    state.close();
    throw error;
  }
  const registry = new HookRegistry(state);
  let publishes = 0;
  let publishFailures = 0;
  const health = new SinkHealth();
  const progress = new InboxProgress(inbox);
  const loaderOptions = {
    dataDir: o.dataDir,
    publishIntervalMs: o.publishIntervalMs,
    logger,
    onPublished: (result: LoadResult) => {
      publishes += result.publishes;
      if (result.publishes > 0) health.published();
      for (let i = 0; i < result.publishes; i++) metrics.published();
      logger.info(result, 'sink: published');
    },
    onPublishFailed: () => {
      publishFailures += 1;
      health.publishFailed(Date.now());
      metrics.publishFailed();
    },
  };
  const loader: SinkLoader = inject.publish
    ? new Loader({
        ...loaderOptions,
        inbox,
        registry,
        validators: o.validateSchemas ? new SchemaValidators(o.dataDir) : undefined,
        publish: inject.publish,
      })
    : new LoaderThread({
        ...loaderOptions,
        validateSchemas: o.validateSchemas,
        logLevel: logger.level,
        workerFile: inject.loaderWorker,
      });
  const metrics = new SinkMetrics({
    backlog: () => progress.backlog(),
    publishLagSeconds: () => progress.publishLagSeconds(),
    lastPublishSeconds: () => progress.lastPublishSeconds(),
    syncRuns: syncRunsReader(state),
    dataChecks: () => loadDataCheckRecord(state)?.results ?? [],
    bodyBytesInFlight: () => budget.heldBytes,
    openConnections: () => connections.openConnections(),
  });
  const writer = new InboxWriter(join(o.dataDir, INBOX_DB_FILE), {
    busyTimeoutMs: o.inboxBusyTimeoutMs,
    onCommitted: (deliveries, durationMs) => {
      metrics.committed(deliveries.length, durationMs);
      const first = deliveries[0];
      if (first) loader.noteAcknowledged(first.receivedAt, deliveries.length);
    },
  });
  registerHealthMetrics(metrics.registry, {
    dataDir: o.dataDir,
    state,
    health,
    notifier: options.notify?.notifier,
  });
  const budget = new BodyBudget(o.bodyBudgetBytes);
  const notice = new ThrottledNotice(logger, {
    over_budget: `sink: refusing requests with 503: the body budget (${o.bodyBudgetBytes} bytes in flight) is full`,
    headers_timeout: `sink: closing connections that sent no complete headers within ${o.headersTimeoutMs} ms`,
    body_timeout: `sink: closing connections that sent no complete request within ${o.requestTimeoutMs} ms`,
    connection_cap: `sink: refusing connections: ${o.maxConnections} are open (the most allowed)`,
  });
  const ctx = {
    registry,
    writer,
    metrics,
    bodyLimitBytes: o.bodyLimitBytes,
    budget,
    onOverBudget: () => notice.note('over_budget'),
    logger,
  };

  let inFlight = 0;
  let closing = false;
  let drained: (() => void) | undefined;
  const route = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const path = (req.url ?? '/').split('?', 1)[0] as string;
    const token = parseHookPath(path);
    if (token !== undefined) return handleDelivery(req, res, token, ctx);
    if (path === '/healthz' && req.method === 'GET') {
      return reply(res, 200, {
        status: closing ? 'closing' : 'ok',
        backlog: progress.backlog(),
        publish_lag_seconds: progress.publishLagSeconds(),
        last_publish_at: progress.lastPublishAt(),
      });
    }
    if (path === '/metrics' && req.method === 'GET') {
      const text = await metrics.scrape();
      res.writeHead(200, { 'Content-Type': metrics.registry.contentType });
      res.end(text);
      return;
    }
    reply(res, 404, { error: 'not found' });
  };
  const onRequest = (req: IncomingMessage, res: ServerResponse): void => {
    inFlight += 1;
    if (closing) res.setHeader('Connection', 'close');
    route(req, res)
      .catch((error: Error) => {
        metrics.requestFailed();
        logger.error({ err: error.message, path: req.url }, 'sink: request failed');
        if (!res.headersSent) reply(res, 500, { error: 'internal error' });
        else res.destroy();
      })
      .finally(() => {
        inFlight -= 1;
        if (inFlight === 0) drained?.();
      });
  };
  const server: Server = createServer(serverOptions(o), onRequest);
  // A sender waiting on Expect: 100-continue is told to go on only once its body has room (handle-delivery.ts).
  server.on('checkContinue', onRequest);
  const connections = guardConnections(server, o, {
    timedOut: (phase) => {
      metrics.timedOut(phase);
      notice.note(`${phase}_timeout`);
    },
    refused: () => {
      metrics.connectionRefused();
      notice.note('connection_cap');
    },
  });

  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen({ port: o.port, host: o.host, backlog: LISTEN_BACKLOG }, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    await loader.stop();
    await loader.close();
    inbox.close();
    state.close();
    throw listenFailure(error, 'sink', o.host, o.port);
  }
  const { port } = server.address() as AddressInfo;
  const watch =
    options.notify &&
    startSinkWatch({
      ...options.notify,
      dataDir: o.dataDir,
      logger,
      health,
      backlog: () => progress.backlog(),
      refusals: () => metrics.outcomes().inbox_unavailable,
      commits: () => writer.stats().commits,
    });
  const host = o.host.includes(':') ? `[${o.host}]` : o.host;

  let closed: Promise<void> | undefined;
  const close = async (): Promise<void> => {
    closing = true;
    watch?.stop();
    const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    if (inFlight > 0) await new Promise<void>((resolve) => (drained = resolve));
    server.closeAllConnections();
    await stopped;
    await writer.close();
    await loader.stop();
    try {
      await loader.loadNow();
    } catch (error) {
      logger.error(
        { err: (error as Error).message },
        'sink: final publish failed; deliveries stay in the inbox',
      );
    }
    await loader.close();
    inbox.close();
    state.close();
  };

  return {
    url: `http://${host}:${port}`,
    port,
    publishNow: () => loader.loadNow(),
    checkHealthNow: () => watch?.tick(),
    stats: () => ({
      outcomes: metrics.outcomes(),
      backlog: progress.backlog(),
      ...writer.stats(),
      publishes,
      publishFailures,
      lastPublishAt: progress.lastPublishAt(),
      openConnections: connections.openConnections(),
      bodyBytesInFlight: budget.heldBytes,
    }),
    close: () => {
      closed ??= close();
      return closed;
    },
  };
}

interface SyncRunsRow {
  last_success: string | null;
  failed: number | null;
  last_status: string | null;
}

/**
 * What /metrics says of the nightly syncs: read from the runs table at each scrape, through
 * one statement prepared when the sink starts.
 */
function syncRunsReader(state: StateDb): SinkGaugeSources['syncRuns'] {
  const statement = state.sqlite.prepare<[], SyncRunsRow>(
    `select max(case when status = 'succeeded' then finished_at end) as last_success,
            sum(case when status = 'failed' then 1 else 0 end) as failed,
            (select status from runs order by started_at desc limit 1) as last_status
     from runs`,
  );
  return () => {
    // An aggregate without group by: always one row.
    const row = statement.get() as SyncRunsRow;
    return {
      lastSuccessSeconds: row.last_success ? Date.parse(row.last_success) / 1000 : 0,
      failed: row.failed ?? 0,
      lastFailed: row.last_status === 'failed',
    };
  };
}
