/**
 * The notifications of one sync run by the `sync` command (from cron, or by hand): a heartbeat
 * at its start, then its outcome and every other condition once it ends. `serve` passes
 * --no-notify to the syncs it starts and reports their outcomes itself (it knows the retries).
 */

import { hasTargets, type NotifyConfig } from '../config/notify-config.js';
import { describeOutcome } from '../extract/check-before-publish.js';
import type { SyncSummary } from '../extract/run-sync.js';
import { firstLine } from '../util/first-line.js';
import type { Logger } from '../util/logger.js';
import { reportSyncOutcome, type SyncOutcome } from './conditions.js';
import { Notifier } from './notifier.js';
import { checkRemoteBehind } from './remote-behind.js';

/**
 * How long a finished sync waits for its notifications before exiting: a webhook that hangs
 * delays a cron job by this much at most (its messages are then dropped, counted and logged).
 */
export const SYNC_NOTIFY_WAIT_MS = 5_000;

export interface SyncNotifier {
  succeeded(summary: SyncSummary): void;
  failed(snapshotDate: string, error: unknown): void;
  /** After the remote commits of the run settled: remote_behind from `failure` (the last one's line) or the lag. */
  remote(url: string, failure: string | undefined): Promise<void>;
  /** Waits for the sends (at most SYNC_NOTIFY_WAIT_MS), then releases everything. */
  close(): Promise<void>;
}

/** The notifier of a sync, or undefined when nothing is configured. */
export function startSyncNotifier(
  config: NotifyConfig | undefined,
  dataDir: string,
  logger: Logger,
  trigger: string,
): SyncNotifier | undefined {
  if (!config || !hasTargets(config)) return undefined;
  // The state database is opened once it exists: a sync refused before the API accepted its key
  // creates nothing in a new data directory, notifications configured or not. A state database
  // that cannot be opened (a full disk, say) is logged when the outcome is reported.
  const notifier = new Notifier({ config, dataDir, logger, stateOnceCreated: true });
  notifier.heartbeat('start', `sync started (${trigger})`);
  const safely = (outcome: SyncOutcome) => reportSyncOutcome(notifier, dataDir, outcome);
  return {
    succeeded: (s) => safely({ ok: true, snapshotDate: s.snapshotDate, line: summaryLine(s) }),
    failed: (snapshotDate, error) => safely({ ok: false, snapshotDate, reason: firstLine(error) }),
    remote: (url, failure) =>
      checkRemoteBehind(notifier, dataDir, url, failure).catch((error: unknown) => {
        logger.warn({ err: firstLine(error) }, 'notifications: could not check the remote');
      }),
    close: () => notifier.close(SYNC_NOTIFY_WAIT_MS),
  };
}

/** The run's summary in one line: the heartbeat's body and the recovery message. */
export function summaryLine(
  s: Pick<SyncSummary, 'snapshotDate' | 'durationMs' | 'rowsWritten' | 'requests' | 'checks'>,
): string {
  const checks = s.checks.error ?? `data checks: ${describeOutcome(s.checks.ran, s.checks.failed)}`;
  return `sync ${s.snapshotDate} succeeded in ${(s.durationMs / 1000).toFixed(1)} s: ${s.rowsWritten} rows, ${s.requests} requests; ${checks}`;
}
