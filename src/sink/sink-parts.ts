/**
 * The parts of a running sink besides its HTTP server: the databases, the hook registry, the
 * inbox writer, the loader (on a thread of its own unless a test injects `publish`), the
 * metrics and the body budget, wired to one another.
 */
import { join } from 'node:path';
import { registerHealthMetrics } from '../notify/health-metrics.js';
import { SinkHealth } from '../notify/sink-watch.js';
import { loadDataCheckRecord } from '../state/data-check-record.js';
import { INBOX_DB_FILE, type InboxDb, openInboxDb } from '../state/inbox-db.js';
import { openStateDb, type StateDb } from '../state/state-db.js';
import type { Logger } from '../util/logger.js';
import { BodyBudget } from './body-budget.js';
import { HookRegistry } from './hook-registry.js';
import { InboxProgress } from './inbox-progress.js';
import { InboxWriter } from './inbox-writer.js';
import { Loader, type LoadResult, type PublishStream, type SinkLoader } from './loader.js';
import { LoaderThread } from './loader-thread.js';
import { SchemaValidators } from './schema-validators.js';
import { type SinkGaugeSources, SinkMetrics } from './sink-metrics.js';
import type { ResolvedSinkOptions, SinkOptions } from './sink-options.js';
import { ThrottledNotice } from './throttled-notice.js';

/** The defences' log lines (throttledNotice below). */
export type DefenceNotice = 'over_budget' | 'headers_timeout' | 'body_timeout' | 'connection_cap';

/** What tests may swap: the publish (the loader then runs in-process) or the loader thread's script. */
export interface SinkInjections {
  readonly publish?: PublishStream;
  readonly loaderWorker?: string;
}

export interface SinkParts {
  readonly state: StateDb;
  readonly inbox: InboxDb;
  readonly registry: HookRegistry;
  readonly health: SinkHealth;
  readonly progress: InboxProgress;
  readonly budget: BodyBudget;
  readonly metrics: SinkMetrics;
  readonly loader: SinkLoader;
  readonly writer: InboxWriter;
  readonly notice: ThrottledNotice<DefenceNotice>;
  /** Publishes done and failed since the start. */
  readonly publishes: { done: number; failed: number };
}

/**
 * Opens the databases and builds the parts. `openConnections` is the server's count (the
 * server is created after the parts, for it routes to them).
 */
export function createSinkParts(
  o: ResolvedSinkOptions,
  options: Pick<SinkOptions, 'openInbox' | 'notify'>,
  logger: Logger,
  inject: SinkInjections,
  openConnections: () => number,
): SinkParts {
  const { state, inbox } = openDatabases(o.dataDir, options.openInbox ?? openInboxDb);
  const registry = new HookRegistry(state);
  const health = new SinkHealth();
  const progress = new InboxProgress(inbox);
  const budget = new BodyBudget(o.bodyBudgetBytes);
  const publishes = { done: 0, failed: 0 };
  const metrics = new SinkMetrics({
    backlog: () => progress.backlog(),
    publishLagSeconds: () => progress.publishLagSeconds(),
    quarantined: () => progress.quarantined(),
    lastPublishSeconds: () => progress.lastPublishSeconds(),
    syncRuns: syncRunsReader(state),
    dataChecks: () => loadDataCheckRecord(state)?.results ?? [],
    bodyBytesInFlight: () => budget.heldBytes,
    openConnections,
  });
  const loader = createLoader(o, logger, { inbox, registry }, inject, {
    onPublished: (result: LoadResult) => {
      publishes.done += result.publishes;
      if (result.publishes > 0) health.published();
      for (let i = 0; i < result.publishes; i++) metrics.published();
      logger.info(result, 'sink: published');
    },
    onPublishFailed: () => {
      publishes.failed += 1;
      health.publishFailed(Date.now());
      metrics.publishFailed();
    },
    onRemote: (failure: string | undefined) => {
      health.remoteFailure = failure;
    },
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
    remote: o.remote?.url,
  });
  const notice = throttledNotice(o, logger);
  return { state, inbox, registry, health, progress, budget, metrics, loader, writer, notice, publishes };
}

/** state.sqlite, then inbox.sqlite (state.sqlite closed again when the inbox cannot open). */
function openDatabases(dataDir: string, openInbox: (dataDir: string) => InboxDb) {
  const state = openStateDb(dataDir);
  try {
    return { state, inbox: openInbox(dataDir) };
  } catch (error) {
    state.close();
    throw error;
  }
}

interface PublishEvents {
  onPublished(result: LoadResult): void;
  onPublishFailed(): void;
  /** The loader thread's remote commits: the last one's failure, undefined once one landed. */
  onRemote(failure: string | undefined): void;
}

/** The loader on its own thread; in-process when a test injects `publish`. */
function createLoader(
  o: ResolvedSinkOptions,
  logger: Logger,
  db: { inbox: InboxDb; registry: HookRegistry },
  inject: SinkInjections,
  events: PublishEvents,
): SinkLoader {
  const common = { dataDir: o.dataDir, publishIntervalMs: o.publishIntervalMs, logger, ...events };
  if (inject.publish) {
    return new Loader({
      ...common,
      ...db,
      validators: o.validateSchemas ? new SchemaValidators(o.dataDir) : undefined,
      publish: inject.publish,
    });
  }
  return new LoaderThread({
    ...common,
    validateSchemas: o.validateSchemas,
    logLevel: logger.level,
    ...(o.remote ? { remote: o.remote } : {}),
    workerFile: inject.loaderWorker,
  });
}

/** The log lines of the defences against hostile clients, each at most once in a while. */
function throttledNotice(o: ResolvedSinkOptions, logger: Logger): ThrottledNotice<DefenceNotice> {
  return new ThrottledNotice(logger, {
    over_budget: `sink: refusing requests with 503: the body budget (${o.bodyBudgetBytes} bytes in flight) is full`,
    headers_timeout: `sink: closing connections that sent no complete headers within ${o.headersTimeoutMs} ms`,
    body_timeout: `sink: closing connections that sent no complete request within ${o.requestTimeoutMs} ms`,
    connection_cap: `sink: refusing connections: ${o.maxConnections} are open (the most allowed)`,
  });
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
