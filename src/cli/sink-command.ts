import type { Command } from 'commander';
import { UserError } from '../util/user-error.js';
import { CONFIG_OPTION, dataDirOption } from './data-dir-options.js';

/** The longest --publish-interval: a day (longer timers would overflow Node's 2^31 ms). */
export const MAX_PUBLISH_INTERVAL_SECONDS = 86_400;

interface SinkFlags {
  host?: string;
  port?: string;
  publishInterval?: string;
  bodyLimit?: string;
  dataDir?: string;
  config?: string;
}

/** `campaign-warehouse sink`: the push receiver, until SIGTERM/SIGINT (then a graceful stop, exit 0). */
export function registerSink(program: Command): void {
  program
    .command('sink')
    .description(
      'receive signed pushed documents on /hooks/<token>, keep them durably, load them into the warehouse',
    )
    .option('--host <host>', 'address to listen on (default 127.0.0.1: put a TLS proxy in front)')
    .option('--port <port>', 'port to listen on (default 8787; 0 = any free port)')
    .option('--publish-interval <seconds>', 'longest time from acknowledgement to the warehouse (default 30)')
    .option('--body-limit <bytes>', 'largest accepted delivery body (default 10 MiB)')
    .option(...dataDirOption('folder of state.sqlite, inbox.sqlite and warehouse.duckdb'))
    .option(...CONFIG_OPTION)
    .action(async (flags: SinkFlags) => {
      // Every option is checked before anything starts (a listener, a thread, a database).
      const [{ writableDataDir }, { createLogger }, { listenForStop }, { probeListen }, sinkOptions] =
        await Promise.all([
          import('../config/command-data-dir.js'),
          import('../util/logger.js'),
          import('../util/stop-signals.js'),
          import('../util/listen-failure.js'),
          import('../sink/sink-options.js'),
        ]);
      const options = {
        dataDir: writableDataDir(flags),
        host: flags.host,
        port: integerFlag('--port', flags.port, 0, 65_535),
        publishIntervalMs: secondsFlag('--publish-interval', flags.publishInterval),
        bodyLimitBytes: integerFlag('--body-limit', flags.bodyLimit, 1, Number.MAX_SAFE_INTEGER),
      };
      if (options.host !== undefined && options.host.trim() === '')
        throw new UserError('--host: an address cannot be empty');
      const logger = createLogger('sink');
      await probeListen(
        'sink',
        options.host ?? sinkOptions.DEFAULT_SINK_HOST,
        options.port ?? sinkOptions.DEFAULT_SINK_PORT,
      );
      const stop = await listenForStop();
      try {
        logger.info({ dataDir: options.dataDir }, 'sink: starting');
        const { startSink } = await import('../sink/start-sink.js');
        const sink = await startSink({ ...options, logger });
        if ((await stop.receivedYet()) === undefined) logger.info({ url: sink.url }, 'sink: listening');
        const signal = await stop.requested;
        logger.info({ signal }, 'sink: stopping (finishing in-flight deliveries, final publish)');
        await sink.close().catch((error: Error) => {
          logger.error({ err: error.message }, 'sink: error while stopping');
          process.exitCode = 1;
        });
        logger.info('sink: stopped');
      } finally {
        stop.dispose();
      }
    });
}

function integerFlag(name: string, value: string | undefined, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (value.trim() === '' || !Number.isInteger(n) || n < min || n > max)
    throw new UserError(`${name} must be an integer ${min}..${max}, got "${value}"`);
  return n;
}

function secondsFlag(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n < 0 || n > MAX_PUBLISH_INTERVAL_SECONDS)
    throw new UserError(
      `${name} must be a number of seconds 0..${MAX_PUBLISH_INTERVAL_SECONDS}, got "${value}"`,
    );
  return Math.round(n * 1000);
}
