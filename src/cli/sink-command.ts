import type { Command } from 'commander';
import { PORT, parseBounded } from '../util/bounded-number.js';
import type { Logger } from '../util/logger.js';
import { UserError } from '../util/user-error.js';
import { CONFIG_OPTION, dataDirOption, REMOTE_OPTION } from './data-dir-options.js';
import { registerSinkQuarantine } from './sink-quarantine-command.js';

/** The longest --publish-interval: a day (longer timers would overflow Node's 2^31 ms). */
export const MAX_PUBLISH_INTERVAL_SECONDS = 86_400;

/** The longest of the sink's timeouts, in seconds: an hour (its MAX_TIMEOUT_MS). */
export const MAX_TIMEOUT_SECONDS = 3_600;

/** The highest --max-connections: far above any open-file limit. */
export const MAX_CONNECTIONS = 1_000_000;

/**
 * The flags of the sink's defences against hostile clients, shared by `sink` and `serve`
 * (defaults: sink-options.ts; docs/deploy.md says what a proxy in front covers too).
 */
export const GUARD_OPTIONS = {
  bodyBudget: [
    '--body-budget <bytes>',
    'most request-body bytes held at once, over all requests; more get 503 + Retry-After before their body is read (default: 64 MiB)',
  ],
  depthLimit: [
    '--depth-limit <levels>',
    'deepest nesting of arrays and objects in a delivery body; deeper ones get 400 (default: 128)',
  ],
  headersTimeout: [
    '--headers-timeout <seconds>',
    "longest time to receive a request's headers (default: 10; 0 = none)",
  ],
  requestTimeout: [
    '--request-timeout <seconds>',
    'longest time to receive a whole request, headers and body (default: 30; 0 = none)',
  ],
  keepAliveTimeout: ['--keep-alive-timeout <seconds>', 'how long an idle connection stays open (default: 5)'],
  maxConnections: [
    '--max-connections <n>',
    'most connections open at once; more are closed at once (default: 4096; 0 = no cap)',
  ],
} as const satisfies Record<string, readonly [string, string]>;

interface SinkFlags {
  host?: string;
  port?: string;
  publishInterval?: string;
  bodyLimit?: string;
  bodyBudget?: string;
  depthLimit?: string;
  headersTimeout?: string;
  requestTimeout?: string;
  keepAliveTimeout?: string;
  maxConnections?: string;
  dataDir?: string;
  config?: string;
  remote?: string;
}

/** `campaign-warehouse sink`: the push receiver, until SIGTERM/SIGINT (then a graceful stop, exit 0). */
export function registerSink(program: Command): void {
  const sink = program
    .command('sink')
    .description(
      'receive signed pushed documents on /hooks/<token>, keep them durably, load them into the warehouse',
    )
    .option('--host <host>', 'address to listen on (default: 127.0.0.1: put a TLS proxy in front)')
    .option('--port <port>', 'port to listen on (default: 8787; 0 = any free port)')
    .option(
      '--publish-interval <seconds>',
      'longest time from acknowledgement to the warehouse (default: 30)',
    )
    .option('--body-limit <bytes>', 'largest accepted delivery body (default: 10 MiB)')
    .option(...GUARD_OPTIONS.bodyBudget)
    .option(...GUARD_OPTIONS.depthLimit)
    .option(...GUARD_OPTIONS.headersTimeout)
    .option(...GUARD_OPTIONS.requestTimeout)
    .option(...GUARD_OPTIONS.keepAliveTimeout)
    .option(...GUARD_OPTIONS.maxConnections)
    .option(...dataDirOption('folder of state.sqlite, inbox.sqlite and warehouse.duckdb'))
    .option(...CONFIG_OPTION)
    .option(...REMOTE_OPTION)
    .action(runSinkCommand);
  registerSinkQuarantine(sink);
}

/** `sink`: every option checked before anything starts (a listener, a thread, a database), then the sink until a stop signal. */
async function runSinkCommand(flags: SinkFlags): Promise<void> {
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
    ...sinkFlagOptions(flags, sinkOptions.MAX_BODY_DEPTH_LIMIT),
  };
  sinkOptions.checkSinkFlags(options);
  const { resolveRemoteSetting } = await import('../remote/resolve-push-settings.js');
  const remote = resolveRemoteSetting(flags);
  const logger = createLogger('sink');
  const notifier = await sinkNotifier(flags, options.dataDir, logger);
  await probeListen(
    'sink',
    options.host ?? sinkOptions.DEFAULT_SINK_HOST,
    options.port ?? sinkOptions.DEFAULT_SINK_PORT,
  );
  const stop = await listenForStop();
  try {
    logger.info({ dataDir: options.dataDir }, 'sink: starting');
    const { startSink } = await import('../sink/start-sink.js');
    const sink = await startSink({
      ...options,
      logger,
      ...(notifier ? { notify: { notifier } } : {}),
      ...(remote ? { remote } : {}),
    });
    if ((await stop.receivedYet()) === undefined) logger.info({ url: sink.url }, 'sink: listening');
    const signal = await stop.requested;
    logger.info({ signal }, 'sink: stopping (finishing in-flight deliveries, final publish)');
    await sink.close().catch((error: Error) => {
      logger.error({ err: error.message }, 'sink: error while stopping');
      process.exitCode = 1;
    });
    logger.info('sink: stopped');
  } finally {
    await notifier?.close(SINK_NOTIFY_WAIT_MS);
    stop.dispose();
  }
}

/** The flags as the sink's options (seconds to milliseconds); each bad value is a UserError naming its flag. */
function sinkFlagOptions(flags: SinkFlags, maxDepthLimit: number) {
  const options = {
    host: flags.host,
    port: integerFlag('--port', flags.port, PORT.min, PORT.max),
    publishIntervalMs: secondsFlag('--publish-interval', flags.publishInterval, MAX_PUBLISH_INTERVAL_SECONDS),
    bodyLimitBytes: integerFlag('--body-limit', flags.bodyLimit, 1, Number.MAX_SAFE_INTEGER),
    bodyBudgetBytes: integerFlag('--body-budget', flags.bodyBudget, 1, Number.MAX_SAFE_INTEGER),
    bodyDepthLimit: integerFlag('--depth-limit', flags.depthLimit, 2, maxDepthLimit),
    headersTimeoutMs: secondsFlag('--headers-timeout', flags.headersTimeout, MAX_TIMEOUT_SECONDS),
    requestTimeoutMs: secondsFlag('--request-timeout', flags.requestTimeout, MAX_TIMEOUT_SECONDS),
    keepAliveTimeoutMs: secondsFlag('--keep-alive-timeout', flags.keepAliveTimeout, MAX_TIMEOUT_SECONDS),
    maxConnections: integerFlag('--max-connections', flags.maxConnections, 0, MAX_CONNECTIONS),
  };
  if (options.host !== undefined && options.host.trim() === '')
    throw new UserError('--host: an address cannot be empty');
  return options;
}

/** How long a stopping sink waits for the notifications under way. */
const SINK_NOTIFY_WAIT_MS = 10_000;

/**
 * The sink's notifier (its incidents: sink_*, disk_low, data_stale), from the config file's
 * notify section (--config, else CW_CONFIG) and CW_NOTIFY_WEBHOOK /
 * CW_HEARTBEAT_URL; undefined when no target is configured.
 */
async function sinkNotifier(flags: SinkFlags, dataDir: string, logger: Logger) {
  const [{ loadConfigFile }, { resolveNotifyConfig, hasTargets }, { Notifier }] = await Promise.all([
    import('../config/sync-config.js'),
    import('../config/notify-config.js'),
    import('../notify/notifier.js'),
  ]);
  const path = flags.config ?? process.env.CW_CONFIG;
  const config = resolveNotifyConfig(path ? loadConfigFile(path).notify : undefined);
  return hasTargets(config) ? new Notifier({ config, dataDir, logger }) : undefined;
}

function integerFlag(name: string, value: string | undefined, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  const n = parseBounded(value, { min, max, integer: true });
  if (n === undefined) throw new UserError(`${name} must be an integer ${min}..${max}, got "${value}"`);
  return n;
}

/** Seconds on the command line, milliseconds in the sink's options. */
function secondsFlag(name: string, value: string | undefined, max: number): number | undefined {
  if (value === undefined) return undefined;
  const n = parseBounded(value, { min: 0, max });
  if (n === undefined) throw new UserError(`${name} must be a number of seconds 0..${max}, got "${value}"`);
  return Math.round(n * 1000);
}
