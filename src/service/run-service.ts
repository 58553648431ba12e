/**
 * `campaign-warehouse serve`: the sink and the scheduler in one process, until SIGTERM or
 * SIGINT: then stop scheduling, let a running sync stop at a safe point (it stays
 * resumable), close the sink gracefully (in-flight commits finish, the inbox is published).
 * Each sync runs as a child process (run-sync-in-child.ts), so it never holds the sink's event loop.
 * Every option is checked before anything starts; a signal stops it in every state (starting,
 * idle, syncing, publishing), and a failure at start closes what had started, so the process exits.
 */

import { type ServiceNotifier, startServiceNotifier } from '../notify/service-notifier.js';
import { DEFAULT_SINK_HOST, DEFAULT_SINK_PORT } from '../sink/sink-options.js';
import { startSink } from '../sink/start-sink.js';
import { openStateDb, type StateDb } from '../state/state-db.js';
import { probeListen } from '../util/listen-failure.js';
import { createLogger, type Logger } from '../util/logger.js';
import { listenForStop } from '../util/stop-signals.js';
import { runSyncInChild } from './run-sync-in-child.js';
import { Scheduler } from './scheduler.js';
import { resolveServiceConfig, type ServiceConfig, type ServiceFlags } from './service-config.js';

export async function runService(flags: ServiceFlags): Promise<void> {
  const service = resolveServiceConfig(flags);
  const { sync: config, schedule, sink: sinkOptions } = service;
  const logger = createLogger('serve');
  await probeListen('sink', sinkOptions.host ?? DEFAULT_SINK_HOST, sinkOptions.port ?? DEFAULT_SINK_PORT);
  const stop = await listenForStop();
  try {
    logger.info({ dataDir: config.dataDir }, 'starting');
    const notify = startServiceNotifier(config.notify, config.dataDir, logger);
    const sink = await startSink({
      dataDir: config.dataDir,
      ...sinkOptions,
      logger,
      ...(notify ? { notify: { notifier: notify.notifier } } : {}),
      ...(config.remote ? { remote: config.remote } : {}),
    }).catch(async (error: unknown) => {
      await notify?.close();
      throw error;
    });
    const stoppedWhileStarting = (await stop.receivedYet()) !== undefined;
    let scheduler: Scheduler | undefined;
    try {
      const state = openStateDb(config.dataDir);
      try {
        if (!stoppedWhileStarting) {
          scheduler = createScheduler(flags, service, state, logger, notify);
          scheduler.start();
          logger.info({ sink: sink.url, cron: schedule.cron, dataDir: config.dataDir }, 'serving');
        }
        const signal = await stop.requested;
        logger.info({ signal }, 'shutting down');
      } finally {
        await scheduler?.stop();
        state.close();
      }
    } finally {
      await sink.close();
      await notify?.close();
    }
    logger.info('stopped');
  } finally {
    stop.dispose();
  }
}

/** The nightly sync's scheduler: each run a child process, its start, success and failure told to the notifier. */
function createScheduler(
  flags: ServiceFlags,
  { sync: config, schedule }: ServiceConfig,
  state: StateDb,
  logger: Logger,
  notify: ServiceNotifier | undefined,
): Scheduler {
  return new Scheduler({
    ...schedule,
    state,
    logger,
    now: () => new Date(),
    sync: async (snapshotDate, trigger, signal) => {
      notify?.started(trigger);
      const summary = await runSyncInChild({
        snapshotDate,
        trigger,
        signal,
        logger,
        dataDir: config.dataDir,
        ...(flags.baseUrl ? { baseUrl: flags.baseUrl } : {}),
        ...(flags.config ? { configFile: flags.config } : {}),
        ...(flags.remote ? { remote: flags.remote } : {}),
      });
      notify?.succeeded(snapshotDate, summary);
    },
    ...(notify ? { onOutcome: (outcome) => notify.failed(outcome) } : {}),
  });
}
