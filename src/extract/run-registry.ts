/**
 * Sync runs and their checkpoints in the state database. A run that died (crash, kill -9,
 * network loss) is resumed by the next run of the same snapshot date: same run id, same
 * staging file, and its checkpointed units are skipped.
 */
import { randomUUID } from 'node:crypto';
import { and, desc, eq, inArray } from '../state/drizzle.js';
import { checkpoints, runs } from '../state/schema.js';
import type { StateDb } from '../state/state-db.js';
import { processIsAlive } from '../util/process-is-alive.js';
import { RUNTIME_EXIT_CODE, UserError } from '../util/user-error.js';

export type RunRow = typeof runs.$inferSelect;

export interface RunCounters {
  requests: number;
  retries: number;
  throttled: number;
}

export class RunRegistry {
  constructor(private readonly state: StateDb) {}

  /**
   * Starts a run, or resumes the unfinished one of the same snapshot date. Refuses while
   * another live process runs a sync on the same data directory.
   */
  begin(
    snapshotDate: string,
    segments: readonly string[],
    trigger: string,
    now: Date,
  ): { run: RunRow; resumed: boolean } {
    const { db } = this.state;
    return this.state.sqlite.transaction(() => {
      for (const running of db.select().from(runs).where(eq(runs.status, 'running')).all()) {
        if (running.pid && running.pid !== process.pid && processIsAlive(running.pid)) {
          throw new UserError(
            `another sync (pid ${running.pid}, snapshot ${running.snapshotDate}) is running on this data directory`,
            // A runtime condition, not a setting: it passes once that sync ends.
            { exitCode: RUNTIME_EXIT_CODE },
          );
        }
      }
      const unfinished = db
        .select()
        .from(runs)
        .where(and(eq(runs.snapshotDate, snapshotDate), inArray(runs.status, ['running', 'failed'])))
        .orderBy(desc(runs.startedAt))
        .get();
      const stamp = now.toISOString();
      if (unfinished) {
        const run = db
          .update(runs)
          .set({
            status: 'running',
            pid: process.pid,
            heartbeatAt: stamp,
            error: null,
            trigger,
            segments: JSON.stringify(segments),
          })
          .where(eq(runs.runId, unfinished.runId))
          .returning()
          .get();
        return { run, resumed: true };
      }
      const run = db
        .insert(runs)
        .values({
          runId: randomUUID(),
          snapshotDate,
          status: 'running',
          trigger,
          startedAt: stamp,
          segments: JSON.stringify(segments),
          pid: process.pid,
          heartbeatAt: stamp,
        })
        .returning()
        .get();
      return { run, resumed: false };
    })();
  }

  /** Units already staged for this snapshot date, as `${segment}|${unit}`. */
  doneUnits(snapshotDate: string): Set<string> {
    const rows = this.state.db
      .select()
      .from(checkpoints)
      .where(eq(checkpoints.snapshotDate, snapshotDate))
      .all();
    return new Set(rows.map((r) => `${r.segment}|${r.unit}`));
  }

  checkpoint(
    runId: string,
    snapshotDate: string,
    segment: string,
    unit: string,
    rows: number,
    now: Date,
  ): void {
    const stamp = now.toISOString();
    this.state.sqlite.transaction(() => {
      this.state.db
        .insert(checkpoints)
        .values({ snapshotDate, segment, unit, rows, doneAt: stamp })
        .onConflictDoUpdate({
          target: [checkpoints.snapshotDate, checkpoints.segment, checkpoints.unit],
          set: { rows, doneAt: stamp },
        })
        .run();
      this.state.db.update(runs).set({ heartbeatAt: stamp }).where(eq(runs.runId, runId)).run();
    })();
  }

  /** Forgets units' checkpoints: the next attempt of the run fetches them again. */
  forgetUnits(snapshotDate: string, units: readonly { segment: string; unit: string }[]): void {
    this.state.sqlite.transaction(() => {
      for (const { segment, unit } of units)
        this.state.db
          .delete(checkpoints)
          .where(
            and(
              eq(checkpoints.snapshotDate, snapshotDate),
              eq(checkpoints.segment, segment),
              eq(checkpoints.unit, unit),
            ),
          )
          .run();
    })();
  }

  finish(
    run: RunRow,
    outcome: { status: 'succeeded' | 'failed'; error?: string; rowsWritten?: number; counters: RunCounters },
    now: Date,
  ): RunRow {
    // Counters add up over the attempts of a resumed run.
    const row = this.state.db
      .update(runs)
      .set({
        status: outcome.status,
        finishedAt: now.toISOString(),
        error: outcome.error ?? null,
        rowsWritten: outcome.rowsWritten ?? run.rowsWritten,
        requests: run.requests + outcome.counters.requests,
        retries: run.retries + outcome.counters.retries,
        throttled: run.throttled + outcome.counters.throttled,
        failures: run.failures + (outcome.status === 'failed' ? 1 : 0),
        pid: null,
      })
      .where(eq(runs.runId, run.runId))
      .returning()
      .get();
    if (outcome.status === 'succeeded') {
      this.state.db.delete(checkpoints).where(eq(checkpoints.snapshotDate, run.snapshotDate)).run();
    }
    return row;
  }

  recent(limit: number): RunRow[] {
    return this.state.db.select().from(runs).orderBy(desc(runs.startedAt)).limit(limit).all();
  }
}
