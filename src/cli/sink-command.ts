import type { Command } from 'commander';
import { UserError } from '../util/user-error.js';

/** Where runtime files live when neither --data-dir nor CW_DATA_DIR says otherwise. */
const DEFAULT_DATA_DIR = 'data';

interface SinkFlags {
  host?: string;
  port?: string;
  publishInterval?: string;
  bodyLimit?: string;
  dataDir?: string;
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
    .option(
      '--data-dir <dir>',
      'folder of state.sqlite, inbox.sqlite and warehouse.duckdb (env CW_DATA_DIR, default ./data)',
    )
    .action(async (flags: SinkFlags) => {
      // Listen before starting: a signal that arrives while the sink starts (or right after it
      // says it listens) must stop it gracefully, not kill it with acknowledged work in flight.
      const stopSignal = new Promise<NodeJS.Signals>((resolve) => {
        process.once('SIGTERM', () => resolve('SIGTERM'));
        process.once('SIGINT', () => resolve('SIGINT'));
      });
      const { startSink } = await import('../sink/start-sink.js');
      const { createLogger } = await import('../util/logger.js');
      const logger = createLogger('sink');
      const sink = await startSink({
        dataDir: flags.dataDir ?? process.env.CW_DATA_DIR ?? DEFAULT_DATA_DIR,
        host: flags.host,
        port: integerFlag('--port', flags.port, 0, 65_535),
        publishIntervalMs: secondsFlag('--publish-interval', flags.publishInterval),
        bodyLimitBytes: integerFlag('--body-limit', flags.bodyLimit, 1, Number.MAX_SAFE_INTEGER),
        logger,
      }).catch((error: Error & { code?: string }) => {
        if (error.code === 'EADDRINUSE' || error.code === 'EACCES' || error.code === 'EADDRNOTAVAIL')
          throw new UserError(
            `sink: cannot listen on ${flags.host ?? '127.0.0.1'}:${flags.port ?? 8787} (${error.code})`,
          );
        throw error;
      });
      logger.info({ url: sink.url, pid: process.pid }, 'sink: listening');
      const signal = await stopSignal;
      logger.info({ signal }, 'sink: stopping (finishing in-flight deliveries, final publish)');
      await sink.close().catch((error: Error) => {
        logger.error({ err: error.message }, 'sink: error while stopping');
        process.exitCode = 1;
      });
      logger.info('sink: stopped');
    });
}

function integerFlag(name: string, value: string | undefined, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max)
    throw new UserError(`${name} must be an integer ${min}..${max}, got "${value}"`);
  return n;
}

function secondsFlag(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0)
    throw new UserError(`${name} must be a number of seconds >= 0, got "${value}"`);
  return Math.round(n * 1000);
}
