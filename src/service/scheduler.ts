/**
 * The nightly schedule of `serve`: node-cron fires the sync at the configured slot (default
 * 21:30 UTC, after the refresh window); a periodic check catches up at start, after missed
 * slots (the machine slept, the service was down) and retries a failed night with backoff.
 * Never two syncs at once.
 */

import cron, { type ScheduledTask } from 'node-cron';
import { latestCompletedRefresh } from '../extract/snapshot-date.js';
import { and, eq, gt, max, sum } from '../state/drizzle.js';
import { runs } from '../state/schema.js';
import type { StateDb } from '../state/state-db.js';
import type { Logger } from '../util/logger.js';
import { UserError } from '../util/user-error.js';
import { decideSchedule, type ScheduleDecision } from './schedule-decision.js';

/** How often the catch-up / retry check runs: small against the backoff, cheap (one query). */
export const CHECK_EVERY_MS = 60_000;

export interface SchedulerOptions {
  readonly cron: string;
  readonly timezone: string;
  readonly state: StateDb;
  readonly logger: Logger;
  now(): Date;
  /** Runs one sync for the snapshot date; rejects on failure (already recorded in the runs table). */
  sync(snapshotDate: string, trigger: string, signal: AbortSignal): Promise<void>;
  readonly checkEveryMs?: number;
  /**
   * After each sync: its error (undefined on success) and, after a failure, when the next
   * attempt is due (undefined: not before the next night's slot). The notifications' hook.
   */
  onOutcome?(outcome: { snapshotDate: string; error?: unknown; nextRetryAt?: Date }): void;
}

export class Scheduler {
  private task: ScheduledTask | undefined;
  private timer: NodeJS.Timeout | undefined;
  private current: Promise<void> | undefined;
  private readonly abort = new AbortController();
  /**
   * This process's failures at one snapshot date, for a sync that failed before it could
   * record its run (a bad config, another sync holding the data directory); the runs table
   * counts the rest, also across restarts.
   */
  private failed: { snapshotDate: string; count: number; lastAt: Date } | undefined;

  constructor(private readonly o: SchedulerOptions) {
    if (!cron.validate(o.cron)) throw new UserError(`--cron: "${o.cron}" is not a valid cron expression`);
  }

  start(): void {
    this.task = cron.schedule(this.o.cron, () => void this.tick('scheduled'), {
      timezone: this.o.timezone,
      name: 'nightly-sync',
    });
    this.timer = setInterval(() => void this.tick('check'), this.o.checkEveryMs ?? CHECK_EVERY_MS);
    this.timer.unref();
    void this.tick('start');
  }

  /** Decides and, when due, starts a sync. Returns the decision (tests call it directly). */
  async tick(reason: 'start' | 'check' | 'scheduled'): Promise<ScheduleDecision> {
    const decision = decideSchedule({
      now: this.o.now(),
      running: this.current !== undefined,
      ...this.history(),
    });
    if (decision.action === 'wait') {
      if (reason !== 'check') this.o.logger.info({ reason: decision.reason }, `${reason} sync skipped`);
      return decision;
    }
    const trigger = reason === 'scheduled' ? 'scheduled' : decision.trigger;
    this.o.logger.info({ snapshotDate: decision.snapshotDate, trigger }, 'starting sync');
    this.current = this.o
      .sync(decision.snapshotDate, trigger, this.abort.signal)
      .then(() => {
        this.failed = undefined;
        this.o.onOutcome?.({ snapshotDate: decision.snapshotDate });
      })
      .catch((error: unknown) => {
        const count = this.failed?.snapshotDate === decision.snapshotDate ? this.failed.count + 1 : 1;
        this.failed = { snapshotDate: decision.snapshotDate, count, lastAt: this.o.now() };
        this.o.logger.error(
          { err: (error as Error).message, snapshotDate: decision.snapshotDate },
          'sync failed; will retry',
        );
        if (this.o.onOutcome) {
          const next = decideSchedule({ now: this.o.now(), running: false, ...this.history() });
          const nextRetryAt =
            next.action === 'run'
              ? new Date(this.o.now().getTime() + (this.o.checkEveryMs ?? CHECK_EVERY_MS))
              : next.until;
          this.o.onOutcome({
            snapshotDate: decision.snapshotDate,
            error,
            ...(nextRetryAt ? { nextRetryAt } : {}),
          });
        }
      })
      .finally(() => {
        this.current = undefined;
      });
    await this.current;
    return decision;
  }

  /** Stops scheduling; a running sync is asked to stop at a safe point (it stays resumable). */
  async stop(): Promise<void> {
    this.task?.stop();
    if (this.timer) clearInterval(this.timer);
    this.abort.abort();
    await this.current;
  }

  /** What the runs table (and this process) says of the current target: a restart keeps the backoff. */
  private history() {
    const { db } = this.o.state;
    const target = latestCompletedRefresh(this.o.now());
    const success = db
      .select({ snapshot: max(runs.snapshotDate) })
      .from(runs)
      .where(eq(runs.status, 'succeeded'))
      .get();
    const recorded = db
      .select({ failures: sum(runs.failures).mapWith(Number), lastAt: max(runs.finishedAt) })
      .from(runs)
      .where(and(eq(runs.snapshotDate, target), gt(runs.failures, 0)))
      .get();
    const mine = this.failed?.snapshotDate === target ? this.failed : undefined;
    // Both sources see this process's recorded failures: the larger count, the later time.
    let lastFailureAt = recorded?.lastAt ? new Date(recorded.lastAt) : null;
    if (mine && (lastFailureAt === null || mine.lastAt > lastFailureAt)) lastFailureAt = mine.lastAt;
    return {
      lastSuccessSnapshot: success?.snapshot ?? null,
      failures: Math.max(recorded?.failures ?? 0, mine?.count ?? 0),
      lastFailureAt,
    };
  }
}
