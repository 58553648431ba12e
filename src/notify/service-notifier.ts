/**
 * The notifications of `serve`: one notifier for the process, shared by the sink's watch
 * (start-sink.ts) and the scheduled syncs, whose outcomes serve reports itself with the
 * scheduler's retry plan (the syncs it starts run with --no-notify).
 */

import { hasTargets, type NotifyConfig } from '../config/notify-config.js';
import type { SyncSummary } from '../extract/run-sync.js';
import { firstLine } from '../util/first-line.js';
import type { Logger } from '../util/logger.js';
import { reportSyncOutcome, type SyncOutcome } from './conditions.js';
import { Notifier } from './notifier.js';
import { summaryLine } from './sync-notifier.js';

/** How long a stopping serve waits for the notifications under way (systemd's stop timeout is longer). */
export const SERVICE_NOTIFY_WAIT_MS = 10_000;

export interface ServiceNotifier {
  readonly notifier: Notifier;
  started(trigger: string): void;
  succeeded(snapshotDate: string, summary: SyncSummary | undefined): void;
  /** The scheduler's onOutcome: only failures are reported here (a success by succeeded()). */
  failed(outcome: { snapshotDate: string; error?: unknown; nextRetryAt?: Date }): void;
  close(): Promise<void>;
}

export function startServiceNotifier(
  config: NotifyConfig | undefined,
  dataDir: string,
  logger: Logger,
): ServiceNotifier | undefined {
  if (!config || !hasTargets(config)) return undefined;
  const notifier = new Notifier({ config, dataDir, logger });
  const safely = (outcome: SyncOutcome) => reportSyncOutcome(notifier, dataDir, outcome);
  return {
    notifier,
    started: (trigger) => notifier.heartbeat('start', `sync started (${trigger})`),
    succeeded: (snapshotDate, summary) =>
      safely({
        ok: true,
        snapshotDate,
        line: summary ? summaryLine(summary) : `sync ${snapshotDate} succeeded`,
      }),
    failed: ({ snapshotDate, error, nextRetryAt }) => {
      if (error === undefined) return;
      // A sync stopped because serve is stopping did not fail: it resumes at the next start.
      if (/interrupted/.test(firstLine(error)) && /resume/.test(firstLine(error))) return;
      safely({
        ok: false,
        snapshotDate,
        reason: firstLine(error).replace(/^campaign-warehouse: /, ''),
        retries: true,
        ...(nextRetryAt ? { nextRetryAt } : {}),
      });
    },
    close: () => notifier.close(SERVICE_NOTIFY_WAIT_MS),
  };
}
