import { existsSync, mkdirSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import type { TableRows } from '../../contracts/rows.js';
import { ALL_SEGMENT, tableSpec, UNIT_TABLES } from '../../contracts/table-registry.js';
import { applyMigrations } from '../duckdb/apply-migrations.js';
import type { DuckDBLease } from '../duckdb/duckdb-pool.js';
import { openWriter, STAGING_SETTINGS } from '../duckdb/open-database.js';
import { TableAppender, tableColumns } from '../duckdb/table-appender.js';
import { sqlIdentifier, stagingPath } from '../duckdb/warehouse-paths.js';
import type { StagingWriter } from '../types.js';
import { inTransaction } from './in-transaction.js';
import { repairStagedJson } from './repair-staged-json.js';
import { type StagedUnits, stagedUnits } from './staged-units.js';

/** The shortest time between two commits of staged rows (StagingWriter.flush). */
export const GROUP_COMMIT_MS = 200;

/**
 * The WAL size past which closing a staging file checkpoints it. A checkpoint compresses and writes
 * every table, and the publish reads the file once: a small WAL is cheaper to replay when the
 * publish attaches the file than a checkpoint is to write (figures: bench/RESULTS.md, "Figures
 * moved out of code comments"), and its rows fit the checks' and the publish's memory limits. A
 * large sync's WAL is checkpointed as it grows anyway (DuckDB's checkpoint_threshold, 16 MB); what
 * is left past this size is checkpointed before the checks, which would otherwise hold it in
 * memory.
 */
const CHECKPOINT_WAL_BYTES = 4 * 1024 * 1024;

/**
 * Opens the private staging file <dataDir>/.staging/<name>.duckdb: created with the
 * warehouse tables if new, reopened as it is if it exists (a resumed sync continues in it;
 * JSON text an earlier release staged is repaired first: repair-staged-json.ts).
 * Only its writer opens it; publishSync reads it once it is closed.
 * Memory stays bounded without explicit checkpoints: appended data past DuckDB's memory
 * limit spills to the file's temporary folder, and a commit (flush) that takes the WAL
 * past DuckDB's checkpoint_threshold checkpoints it into the file. (Checkpointing every
 * few hundred thousand rows as well cost load throughput and, through the rewrites of partial
 * row groups, more memory rather than less.)
 */
export async function openStaging(dataDir: string, name: string): Promise<StagingWriter> {
  const path = stagingPath(dataDir, name);
  mkdirSync(dirname(path), { recursive: true });
  const resumed = existsSync(path);
  const db = await openWriter(path, STAGING_SETTINGS);
  try {
    await applyMigrations(db.connection);
    if (resumed) await repairStagedJson(db.connection);
    return new StagingFile(path, db, await stagedUnits(db.connection), await tableColumns(db.connection));
  } catch (error) {
    await db.close();
    throw error;
  }
}

/** An open staging file. Calls run one at a time: the connection and appenders are not re-entrant. */
class StagingFile implements StagingWriter {
  readonly #db: DuckDBLease;
  readonly #staged: StagedUnits;
  readonly #appenders = new Map<string, TableAppender>();
  #closed = false;
  #queue: Promise<unknown> = Promise.resolve();
  /** The first close's (close or closeAfter): a later close() waits for it. */
  #closing: Promise<unknown> | undefined;
  /** The next group commit, while it has not started: later flushes join it; start() hurries it. */
  #nextCommit: { readonly done: Promise<void>; readonly start: () => void } | undefined;
  /** When the last group commit started (performance.now()). */
  #lastCommit = Number.NEGATIVE_INFINITY;
  /** The staging tables' columns, looked up once for all the appenders. */
  readonly #columns: ReadonlyMap<string, readonly string[]>;

  constructor(
    readonly path: string,
    db: DuckDBLease,
    staged: StagedUnits,
    columns: ReadonlyMap<string, readonly string[]>,
  ) {
    this.#db = db;
    this.#staged = staged;
    this.#columns = columns;
  }

  append(rows: TableRows): Promise<void> {
    return this.#serial(async () => {
      for (const [table, tableRows] of Object.entries(rows)) {
        if (!tableRows || tableRows.length === 0) continue;
        // A table the warehouse does not have is ignored, like an unknown column.
        const appender = await this.#appenderFor(table);
        if (!appender) continue;
        this.#staged.note(table, tableRows);
        appender.append(tableRows);
      }
    });
  }

  clearUnit(segment: string, campaignId: string): Promise<void> {
    return this.#serial(async () => {
      // A unit nothing was staged for (every unit of a new run) has nothing to delete.
      if (!this.#staged.has(segment, campaignId)) return;
      await inTransaction(this.#db.connection, async () => {
        this.#flushAppenders();
        await clearUnit(this.#db.connection, segment, campaignId);
      });
      this.#staged.forget(segment, campaignId);
    });
  }

  flush(options: { now?: boolean } = {}): Promise<void> {
    // Group commit: at most one commit per GROUP_COMMIT_MS, shared by every flush asked for
    // until it starts (it commits all rows appended by then, theirs included). A commit and
    // the appenders' flushes into it cost about the same however few rows they hold, and a
    // small sync finishes units faster than one commits. `now`: the caller has nothing else to do.
    if (!this.#nextCommit) {
      let start = () => {};
      const started = new Promise<void>((resolve) => {
        start = resolve;
      });
      const timer = setTimeout(start, Math.max(0, this.#lastCommit + GROUP_COMMIT_MS - performance.now()));
      const done = started.then(() =>
        this.#serial(() => {
          this.#nextCommit = undefined;
          this.#lastCommit = performance.now();
          return this.#flushAll();
        }).catch((error: unknown) => {
          // Closed meanwhile: the close commits every appended row (or fails itself).
          if (this.#closed && this.#closing) return this.#closing.then(() => undefined);
          throw error;
        }),
      );
      this.#nextCommit = {
        done,
        start: () => {
          clearTimeout(timer);
          start();
        },
      };
    }
    const next = this.#nextCommit;
    if (options.now) next.start();
    return next.done;
  }

  close(): Promise<void> {
    this.#closing ??= this.#close(async () => undefined);
    return this.#closing.then(() => undefined);
  }

  closeAfter<T>(work: (connection: DuckDBConnection) => Promise<T>): Promise<T> {
    const closing = this.#close(work);
    this.#closing ??= closing;
    return closing;
  }

  #serial<T>(work: () => Promise<T>): Promise<T> {
    const run = this.#queue.then(async () => {
      if (this.#closed) throw new Error(`warehouse: staging ${this.path} is closed`);
      return work();
    });
    this.#queue = run.catch(() => undefined);
    return run;
  }

  async #appenderFor(table: string): Promise<TableAppender | undefined> {
    let appender = this.#appenders.get(table);
    if (!appender && tableSpec(table)) {
      appender = await TableAppender.create(this.#db.connection, table, undefined, this.#columns.get(table));
      this.#appenders.set(table, appender);
    }
    return appender;
  }

  /** Flushes, checkpoints unless the WAL is small, runs `work`, then closes; fails if already closed. */
  #close<T>(work: (connection: DuckDBConnection) => Promise<T>): Promise<T> {
    return this.#serial(async () => {
      this.#closed = true;
      try {
        await this.#flushAll();
        for (const appender of this.#appenders.values()) appender.close();
        // A small WAL stays as it is: the publish replays it when it attaches the file.
        if (walBytes(this.path) > CHECKPOINT_WAL_BYTES) await this.#db.connection.run('checkpoint');
        else await this.#db.connection.run('pragma disable_checkpoint_on_shutdown');
        return await work(this.#db.connection);
      } finally {
        await this.#db.close();
      }
    });
  }

  #flushAppenders(): void {
    for (const appender of this.#appenders.values()) appender.flush();
  }

  /** The appenders' buffers into their tables in one commit (one WAL sync, not one per table). */
  #flushAll(): Promise<void> {
    return inTransaction(this.#db.connection, async () => this.#flushAppenders());
  }
}

/**
 * Deletes what the staging file holds of one unit (segment + campaign): the unit-scoped
 * tables' rows (table-registry.ts); a segment-less one's belong to the 'all' unit.
 */
async function clearUnit(connection: DuckDBConnection, segment: string, campaignId: string): Promise<void> {
  for (const table of UNIT_TABLES) {
    if (tableSpec(table)?.segmented)
      await connection.run(`delete from ${sqlIdentifier(table)} where segment = $1 and campaign_id = $2`, [
        segment,
        campaignId,
      ]);
    else if (segment === ALL_SEGMENT)
      await connection.run(`delete from ${sqlIdentifier(table)} where campaign_id = $1`, [campaignId]);
  }
}

/** The size of a DuckDB file's write-ahead log (0 when it has none). */
function walBytes(path: string): number {
  try {
    return statSync(`${path}.wal`).size;
  } catch {
    return 0;
  }
}
