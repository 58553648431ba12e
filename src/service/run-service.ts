/**
 * `campaign-warehouse serve`: the sink and the scheduler in one process, until SIGTERM or
 * SIGINT: then stop scheduling, let a running sync stop at a safe point (it stays
 * resumable), close the sink gracefully (in-flight commits finish, the inbox is published).
 * Each sync runs as a child process (run-sync-in-child.ts), so it never holds the sink's event loop.
 */
import { resolveSyncConfig } from '../config/sync-config.js';
import { startSink } from '../sink/start-sink.js';
import { openStateDb } from '../state/state-db.js';
import { createLogger } from '../util/logger.js';
import { runSyncInChild } from './run-sync-in-child.js';
import { Scheduler } from './scheduler.js';

export interface ServiceFlags {
  host?: string;
  port?: number;
  publishInterval?: number;
  bodyLimit?: number;
  cron?: string;
  timezone?: string;
  dataDir?: string;
  baseUrl?: string;
  config?: string;
}

export async function runService(flags: ServiceFlags): Promise<void> {
  const logger = createLogger('serve');
  // Listen first: a signal arriving while the sink or a catch-up sync starts must stop the
  // service gracefully, not kill it.
  const stopRequested = new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  const config = resolveSyncConfig(flags);
  const sink = await startSink({
    dataDir: config.dataDir,
    ...(flags.host ? { host: flags.host } : {}),
    ...(flags.port !== undefined ? { port: flags.port } : {}),
    ...(flags.bodyLimit ? { bodyLimitBytes: flags.bodyLimit } : {}),
    ...(flags.publishInterval !== undefined ? { publishIntervalMs: flags.publishInterval * 1000 } : {}),
    logger,
  });
  const state = openStateDb(config.dataDir);
  const scheduler = new Scheduler({
    cron: flags.cron ?? config.schedule.cron,
    timezone: flags.timezone ?? config.schedule.timezone,
    state,
    logger,
    now: () => new Date(),
    sync: (snapshotDate, trigger, signal) =>
      runSyncInChild({
        snapshotDate,
        trigger,
        signal,
        logger,
        dataDir: config.dataDir,
        ...(flags.baseUrl ? { baseUrl: flags.baseUrl } : {}),
        ...(flags.config ? { configFile: flags.config } : {}),
      }),
  });
  scheduler.start();
  logger.info(
    { sink: sink.url, cron: flags.cron ?? config.schedule.cron, dataDir: config.dataDir },
    'serving',
  );
  await stopRequested;
  logger.info('shutting down');
  await scheduler.stop();
  await sink.close();
  state.close();
}
