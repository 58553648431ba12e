/**
 * What the extraction steps of one sync run share (run-sync.ts builds it once the run has
 * begun), and the small rules every step follows: stop when asked, count what is appended.
 */
import type { ApiClient } from '../api/types.js';
import type { RefusedValues } from '../normalize/refused-values.js';
import type { RowContext, TableRows } from '../normalize/rows.js';
import type { Logger } from '../util/logger.js';
import type { RunRegistry } from './run-registry.js';

/** The part of the staging file the extraction writes through. */
export interface UnitWriter {
  /** Removes what an interrupted attempt left for one unit before it is fetched again. */
  clearUnit(segment: string, campaignId: string): Promise<void>;
  append(rows: TableRows): Promise<void>;
  /** Resolves once the rows appended before the call are committed (commits are grouped). */
  flush(options?: { now?: boolean }): Promise<void>;
}

export interface ExtractContext {
  readonly api: ApiClient;
  readonly writer: UnitWriter;
  readonly registry: RunRegistry;
  readonly runId: string;
  readonly snapshotDate: string;
  /** When this run first saw the records (one stamp for the whole run). */
  readonly seenAt: string;
  /** Units an earlier attempt of this run checkpointed, as `<segment>|<unit>`: skipped. */
  readonly done: ReadonlySet<string>;
  /** The values normalization stored as NULL, their column unable to hold them as sent: reported at the end. */
  readonly refused?: RefusedValues;
  readonly logger: Logger;
  now(): Date;
  readonly signal?: AbortSignal;
}

export function rowContext(ctx: ExtractContext, segment: string): RowContext {
  return {
    snapshotDate: ctx.snapshotDate,
    segment,
    seenAt: ctx.seenAt,
    ...(ctx.refused ? { refused: ctx.refused } : {}),
  };
}

/** Appends a page's rows (nothing when it has none); returns how many. */
export async function append(writer: UnitWriter, rows: TableRows): Promise<number> {
  let count = 0;
  for (const list of Object.values(rows)) count += list?.length ?? 0;
  if (count) await writer.append(rows);
  return count;
}

/**
 * The checkpoints of units (or global resources) fetched but maybe not yet committed: each is
 * recorded in the state database once the staging commit holding its rows is durable, without
 * the fetch waiting for it (the writer groups commits). A crash before that commit refetches
 * the unit at the resume.
 */
export class PendingCheckpoints {
  readonly #committed: Promise<void>[] = [];

  constructor(private readonly ctx: ExtractContext) {}

  /** The unit's rows are all appended: record it once they are committed. */
  add(segment: string, unit: string, rows: number): void {
    const { ctx } = this;
    const done = ctx.writer
      .flush()
      .then(() => ctx.registry.checkpoint(ctx.runId, ctx.snapshotDate, segment, unit, rows, ctx.now()));
    done.catch(() => {}); // awaited by settle(); never an unhandled rejection meanwhile
    this.#committed.push(done);
  }

  /** Commits what is pending now (nothing is left to append), then waits for every checkpoint. */
  async settle(): Promise<void> {
    if (this.#committed.length) await this.ctx.writer.flush({ now: true });
    await Promise.all(this.#committed);
  }
}

/** Stops the run between pages when asked (SIGINT/SIGTERM): exit code 130, resumable. */
export function abortIfAsked(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw syncInterrupted();
}

/**
 * The error of a run stopped when asked (SIGINT/SIGTERM): exit code 130, resumable. Also the
 * reason the sync's signal aborts with, which the API client rejects a call in flight with.
 */
export function syncInterrupted(): Error {
  return Object.assign(new Error('sync interrupted: run it again to resume'), { exitCode: 130 });
}
