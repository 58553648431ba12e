/**
 * The conditions behind the incidents, each checked against what the data directory says now:
 * called after every sync (serve's and cron's) and on the sink's watch tick. Each opens its
 * incident while the condition holds and closes it once it no longer does; the incident
 * store makes repeated calls silent.
 */

import { loadDataCheckRecord } from '../state/data-check-record.js';
import { and, eq, sum } from '../state/drizzle.js';
import { runs } from '../state/schema.js';
import { firstLine } from '../util/first-line.js';
import type { DataCheckResult } from '../warehouse/index.js';
import { dataBehindSeconds } from './data-behind.js';
import { DISK_LOW_BYTES, DISK_LOW_RATIO, diskSpace, isDiskLow } from './disk-space.js';
import type { Notifier } from './notifier.js';
import type { IncidentKind } from './notify-event.js';

/** How one sync ended, as the notifications tell it. */
export type SyncOutcome =
  | { readonly ok: true; readonly snapshotDate: string; readonly line: string }
  | {
      readonly ok: false;
      readonly snapshotDate: string;
      /** The error's first line. */
      readonly reason: string;
      /** When serve retries: the time of the next attempt (undefined: the next night's slot). */
      readonly nextRetryAt?: Date;
      /** serve: the scheduler says whether it will retry. */
      readonly retries?: boolean;
    };

/**
 * After a sync (or its failure): heartbeat, sync_failed / sync_recovered, then every other
 * condition. Never throws: notifications never change a sync's outcome (a problem of theirs,
 * a busy state database say, is logged).
 */
export function reportSyncOutcome(notifier: Notifier, dataDir: string, outcome: SyncOutcome): void {
  try {
    reportOutcome(notifier, dataDir, outcome);
  } catch (error) {
    notifier.logger.warn({ err: firstLine(error) }, 'notifications: could not report the sync');
  }
}

function reportOutcome(notifier: Notifier, dataDir: string, outcome: SyncOutcome): void {
  if (outcome.ok) {
    notifier.heartbeat('success', outcome.line);
    notifier.clear(
      'sync_failed',
      `sync of ${outcome.snapshotDate} succeeded after a failure: ${outcome.line}`,
    );
  } else {
    notifier.heartbeat('fail', `sync of ${outcome.snapshotDate} failed: ${outcome.reason}`);
    const attempt = notifier.hasState ? failedAttempts(notifier, outcome.snapshotDate) : 1;
    const next = outcome.nextRetryAt?.toISOString();
    notifier.raise('sync_failed', `sync of ${outcome.snapshotDate} failed: ${outcome.reason}`, {
      snapshot_date: outcome.snapshotDate,
      reason: outcome.reason,
      attempt,
      ...(outcome.retries === undefined ? {} : { next_retry_at: next ?? 'after the next refresh window' }),
    });
  }
  // No state database yet (a sync refused before the API accepted its key): nothing else to check.
  if (!notifier.hasState) return;
  checkDataChecks(notifier);
  checkStale(notifier);
  checkDisk(notifier, dataDir);
  notifier.remind();
}

/** Failed attempts recorded for a snapshot date (at least 1: this one). */
function failedAttempts(notifier: Notifier, snapshotDate: string): number {
  const row = notifier.state.db
    .select({ failures: sum(runs.failures).mapWith(Number) })
    .from(runs)
    .where(and(eq(runs.snapshotDate, snapshotDate)))
    .get();
  return Math.max(1, row?.failures ?? 0);
}

/**
 * data_checks_failed (rule checks) and history_checks_failed (checks across snapshots, whose
 * results carry kind 'history'), from the latest checked run's record.
 */
export function checkDataChecks(notifier: Notifier): void {
  const record = loadDataCheckRecord(notifier.state);
  if (!record) return;
  const byKind: Record<'data_checks_failed' | 'history_checks_failed', DataCheckResult[]> = {
    data_checks_failed: [],
    history_checks_failed: [],
  };
  for (const r of record.results)
    if (r.status === 'failed')
      byKind[r.kind === 'history' ? 'history_checks_failed' : 'data_checks_failed'].push(r);
  for (const [kind, failed] of Object.entries(byKind) as [IncidentKind, DataCheckResult[]][]) {
    if (failed.length === 0) {
      notifier.clear(kind, `${label(kind)} pass again (snapshot ${record.snapshotDate})`, {
        snapshot_date: record.snapshotDate,
      });
      continue;
    }
    const list = failed.map((r) => `${r.check} (${r.segment}): ${r.failingCampaigns} campaign(s)`);
    notifier.raise(
      kind,
      `${failed.length} ${label(kind)} failed on snapshot ${record.snapshotDate}: ${list.join(', ')}`,
      {
        snapshot_date: record.snapshotDate,
        mode: record.mode,
        checks: failed.map((r) => ({ check: r.check, segment: r.segment, campaigns: r.failingCampaigns })),
      },
    );
  }
}

function label(kind: IncidentKind): string {
  return kind === 'history_checks_failed' ? 'history checks' : 'data checks';
}

/** data_stale: no successful snapshot of a completed refresh for staleAfterHours. */
export function checkStale(notifier: Notifier): void {
  const behind = dataBehindSeconds(notifier.state, notifier.now());
  const hours = notifier.config.staleAfterHours;
  if (behind >= hours * 3600) {
    notifier.raise(
      'data_stale',
      `no successful sync of a completed refresh for ${Math.floor(behind / 3600)} h (alert after ${hours} h)`,
      { behind_hours: Math.floor(behind / 3600), stale_after_hours: hours },
    );
  } else notifier.clear('data_stale', 'the warehouse has a recent snapshot again');
}

/** disk_low: the data directory's file system has less than 10% or 2 GB free. */
export function checkDisk(
  notifier: Notifier,
  dataDir: string,
  limits = { ratio: DISK_LOW_RATIO, bytes: DISK_LOW_BYTES },
): void {
  const space = diskSpace(dataDir);
  if (!space) return;
  const details = { data_dir: dataDir, free_bytes: space.freeBytes, total_bytes: space.totalBytes };
  if (isDiskLow(space, limits))
    notifier.raise(
      'disk_low',
      `${gb(space.freeBytes)} free of ${gb(space.totalBytes)} on the data directory ${dataDir}`,
      details,
    );
  else
    notifier.clear('disk_low', `${gb(space.freeBytes)} free again on the data directory ${dataDir}`, details);
}

const gb = (bytes: number) => `${(bytes / 1024 ** 3).toFixed(2)} GB`;
