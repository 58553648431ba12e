import { setMaxListeners } from 'node:events';
import { type Command, InvalidArgumentError, Option } from 'commander';
import { CONFIG_OPTION, dataDirOption, REMOTE_OPTION } from './data-dir-options.js';
import { numberIn } from './number-in.js';

/** A repeatable --campaign: the ids in the order given; an empty one is refused. */
export const collect = (value: string, previous: string[] = []) => {
  if (!value.trim()) throw new InvalidArgumentError('a campaign id cannot be empty');
  return [...previous, value];
};

export function registerSync(program: Command): void {
  program
    .command('sync')
    .description(
      'run one extraction into <data-dir>/warehouse.duckdb (resumable; atomic; idempotent per snapshot date).\n' +
        'The API key is read from CW_API_KEY; CW_CA_FILE adds a trusted CA.',
    )
    .option('--base-url <url>', 'API base URL, https:// (http:// only for loopback) [env CW_BASE_URL]')
    .option(...dataDirOption('where the warehouse and state live'))
    .option(...CONFIG_OPTION)
    .option(
      '--snapshot-date <YYYY-MM-DD>',
      'date the figures belong to (default: the latest completed 18:00-21:00 UTC refresh)',
    )
    .option('--force', 'run even inside the API refresh window (figures may mix two days)')
    .option('--rps <n>', 'requests per second (default: 5)', numberIn(0.1, 10_000))
    .option('--concurrency <n>', 'requests in flight (default: 4)', numberIn(1, 64, true))
    .option(
      '--campaign <id>',
      "only this campaign (repeatable); an id the API's campaign list lacks is refused (exit 2)",
      collect,
    )
    .option('--strict', 'a failing data check fails the run before its publish (default: it warns)')
    .option('--json', 'print the summary as one JSON line (default: text, even when piped)')
    .option(...REMOTE_OPTION)
    .option(
      '--force-source',
      "sync even though the data directory holds another API account's figures (another base URL, " +
        "no workspace in common): this source becomes the directory's, and its figures join the same history",
    )
    .option(
      '--dry-run',
      'print the plan (source, snapshot date, segments, campaigns, requests and the time they take at ' +
        "--rps) and write nothing; it calls the API's list endpoints (workspaces, tags, campaigns)",
    )
    // What started the run, recorded in it (serve passes scheduled / catch-up / retry).
    .addOption(new Option('--trigger <name>').default('manual').hideHelp())
    // serve reports the outcomes of the syncs it starts itself (it knows the retries).
    .addOption(new Option('--no-notify').hideHelp())
    .action(runSyncCommand);
}

/** `sync`: one run, its summary on stdout, its log on stderr, its outcome notified. */
async function runSyncCommand(flags: SyncCommandFlags): Promise<void> {
  const [{ resolveSyncConfig }, { favorMemoryOverSpeed }] = await Promise.all([
    import('../config/sync-config.js'),
    import('../util/favor-memory.js'),
  ]);
  favorMemoryOverSpeed();
  const config = resolveSyncConfig(flags);
  if (flags.dryRun) return printSyncPlan(config, flags);
  const [{ runSync }, { formatSummary }, { startSyncNotifier }, { syncInterrupted }] = await Promise.all([
    import('../extract/run-sync.js'),
    import('../extract/format-summary.js'),
    import('../notify/sync-notifier.js'),
    import('../extract/extract-context.js'),
  ]);
  const { logger, reporter } = await syncOutput();
  const notifier = flags.notify
    ? startSyncNotifier(config.notify, config.dataDir, logger, flags.trigger)
    : undefined;
  const stop = stopWhenAsked(syncInterrupted);
  // Each publish is also committed to the remote lake when one is configured (docs/remote.md).
  const remote = config.remote
    ? (await import('../remote/index.js')).followPublishes(config.remote, () => {})
    : undefined;
  try {
    const summary = await runSync(config, {
      logger,
      now: () => new Date(),
      onProgress: (p) => reporter.update(p),
      onApiEvent: (e) => reporter.apiEvent(e),
      signal: stop.signal,
      trigger: flags.trigger,
      ...(flags.forceSource ? { forceSource: true } : {}),
    });
    reporter.stop();
    process.stdout.write(flags.json ? `${JSON.stringify(summary)}\n` : formatSummary(summary));
    notifier?.succeeded(summary);
  } catch (caught) {
    reporter.stop();
    throw await syncFailure(caught, config, notifier);
  } finally {
    stop.dispose();
    await remote?.detach();
    if (remote && config.remote) await notifier?.remote(config.remote.url, remote.failure?.message);
    await notifier?.close();
  }
  // The run succeeded and its publish stands; the remote lags until the next commit lands.
  if (remote?.failure) throw remote.failure;
}

/** `sync --dry-run`: the plan on stdout (one JSON line with --json); nothing written. */
async function printSyncPlan(
  config: import('../config/sync-config.js').SyncConfig,
  flags: SyncCommandFlags,
): Promise<void> {
  const { planSync, formatPlan } = await import('../extract/plan-sync.js');
  const { logger, reporter } = await syncOutput();
  reporter.stop();
  const plan = await planSync(config, {
    logger,
    now: () => new Date(),
    forceSource: flags.forceSource === true,
  });
  process.stdout.write(flags.json ? `${JSON.stringify(plan)}\n` : formatPlan(plan));
}

/**
 * The output (README, "sync's output"): stdout has the summary only, as text unless --json;
 * stderr has the log, JSON lines unless on a terminal, where it is text printed above the
 * progress bar.
 */
async function syncOutput() {
  const [{ createLogger }, { createProgressReporter }, { textLogLine }] = await Promise.all([
    import('../util/logger.js'),
    import('../extract/progress-reporter.js'),
    import('../util/text-log-line.js'),
  ]);
  const tty = Boolean(process.stderr.isTTY);
  let progress: { log(line: string): void } | undefined;
  const toTerminal = (line: string) => {
    const text = textLogLine(line);
    if (progress) progress.log(text);
    else process.stderr.write(text);
  };
  const logger = createLogger('sync', tty ? { write: toTerminal } : undefined);
  const reporter = createProgressReporter(logger, tty);
  progress = reporter;
  return { logger, reporter };
}

/**
 * SIGINT, SIGTERM, or the serve that started this sync gone: the run stops at once, at a safe
 * point (the checkpoints of the units done kept, for the next run to resume). A request in
 * flight, a Retry-After pause or a backoff is cut short with `interrupted()` (exit 130).
 */
function stopWhenAsked(interrupted: () => Error): { signal: AbortSignal; dispose(): void } {
  const abort = new AbortController();
  // Every request waiting for its turn listens to it: as many as the sync has calls queued.
  setMaxListeners(0, abort.signal);
  const stop = () => abort.abort(interrupted());
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  // Started by `serve` (run-sync-in-child.ts), the sync has an IPC channel to it: when
  // the channel closes, serve is gone (even killed with SIGKILL) and the sync stops at a
  // safe point instead of running on, orphaned. The channel alone keeps nothing alive.
  process.channel?.unref();
  process.once('disconnect', stop);
  if (process.send && !process.connected) stop(); // serve died while this one started
  return {
    signal: abort.signal,
    dispose: () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      process.off('disconnect', stop);
    },
  };
}

/** The error the CLI prints for a failed run, the failure notified unless the run was interrupted. */
async function syncFailure(
  caught: unknown,
  config: { dataDir: string; snapshotDate?: string | undefined },
  notifier: { failed(snapshotDate: string, error: unknown): void } | undefined,
): Promise<unknown> {
  const [{ explainNoSpace }, { latestCompletedRefresh }] = await Promise.all([
    import('../util/no-space.js'),
    import('../extract/snapshot-date.js'),
  ]);
  // A full disk says so and names the data directory (SQLite may only say "disk I/O error").
  const error = explainNoSpace(
    caught,
    config.dataDir,
    '; free some space, then run the sync again: it resumes where it stopped',
  );
  // An interrupted sync (exit 130) did not fail: it resumes at the next run.
  if ((error as { exitCode?: unknown }).exitCode !== 130)
    notifier?.failed(config.snapshotDate ?? latestCompletedRefresh(new Date()), error);
  // The CLI prints the one-line message; make sure an API failure exits non-zero.
  if (typeof (error as { exitCode?: unknown }).exitCode !== 'number')
    Object.assign(error as object, { exitCode: 1 });
  return error;
}

interface SyncCommandFlags {
  baseUrl?: string;
  dataDir?: string;
  config?: string;
  snapshotDate?: string;
  force?: boolean;
  rps?: number;
  concurrency?: number;
  campaign?: string[];
  json?: boolean;
  strict?: boolean;
  remote?: string;
  forceSource?: boolean;
  dryRun?: boolean;
  trigger: string;
  /** false with --no-notify (serve's syncs). */
  notify: boolean;
}
