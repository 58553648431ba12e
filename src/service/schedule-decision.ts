/**
 * The scheduler's decision, pure so it can be tested with any clock: given the time, what
 * the state database says about the current snapshot, and whether a sync is running, run
 * one now or wait. Syncs belong after the API's refresh window (18:00–21:00 UTC).
 */
import { insideRefreshWindow, latestCompletedRefresh } from '../extract/snapshot-date.js';

export interface ScheduleState {
  readonly now: Date;
  /** A sync of this process is in progress. */
  readonly running: boolean;
  /** Latest snapshot date with a successful run, or null. */
  readonly lastSuccessSnapshot: string | null;
  /** Failed runs for the current target snapshot, and when the last one finished. */
  readonly failures: number;
  readonly lastFailureAt: Date | null;
}

export type ScheduleDecision =
  | { readonly action: 'run'; readonly snapshotDate: string; readonly trigger: 'catch-up' | 'retry' }
  | { readonly action: 'wait'; readonly reason: string; readonly until?: Date };

/** First retry of a failed night's sync after 5 minutes, doubling, at most 2 hours apart. */
export const RETRY_BASE_MS = 5 * 60_000;
export const RETRY_MAX_MS = 2 * 60 * 60_000;

export function retryDelayMs(failures: number): number {
  return Math.min(RETRY_MAX_MS, RETRY_BASE_MS * 2 ** Math.max(0, failures - 1));
}

export function decideSchedule(s: ScheduleState): ScheduleDecision {
  if (s.running) return { action: 'wait', reason: 'a sync is already running' };
  // Retrying stops when the next refresh window opens: the next night's slot takes over.
  if (insideRefreshWindow(s.now))
    return { action: 'wait', reason: 'the API is refreshing (18:00-21:00 UTC)' };
  const target = latestCompletedRefresh(s.now);
  if (s.lastSuccessSnapshot !== null && s.lastSuccessSnapshot >= target) {
    return { action: 'wait', reason: `snapshot ${target} is already synced` };
  }
  if (s.failures === 0 || s.lastFailureAt === null)
    return { action: 'run', snapshotDate: target, trigger: 'catch-up' };
  const until = new Date(s.lastFailureAt.getTime() + retryDelayMs(s.failures));
  if (s.now >= until) return { action: 'run', snapshotDate: target, trigger: 'retry' };
  return { action: 'wait', reason: `retry ${s.failures + 1} after a failure`, until };
}
