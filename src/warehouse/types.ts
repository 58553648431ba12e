/**
 * Contract of the warehouse module (src/warehouse/), the one module that opens DuckDB.
 *
 * Files under <dataDir>:
 *   lake/                     the data: Parquet files in immutable version directories,
 *                             reached through links swapped by rename(2) (docs/lake.md)
 *   warehouse.duckdb          the catalog: views over the lake with the tables' names, columns
 *                             and types, and the analyst views; replaced by an atomic rename
 *                             when the catalog changes, never opened for writing
 *   stream-keys.sqlite        the stream tables' keys already in the lake (exactly-once)
 *   .staging/<name>.duckdb    private work files of writers (one per sync snapshot date)
 * Every publish (sync, stream load, upkeep) takes the cross-process publish lock, writes new
 * version directories and swaps their links (lake/publish-warehouse.ts); readers, including
 * connections held open, see it at their next query.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import type { DataCheckResult } from '../contracts/data-check-result.js';
import type { Row, TableRows } from '../contracts/rows.js';
import type { SyncRunRecord } from '../contracts/sync-run-record.js';

export type { DataCheckResult } from '../contracts/data-check-result.js';
export type { SyncRunRecord } from '../contracts/sync-run-record.js';

/** Rows of one sync run, written page by page into a private staging file. */
export interface StagingWriter {
  readonly path: string;
  /** Removes what an interrupted attempt left for one unit (segment + campaign) before it is fetched again. */
  clearUnit(segment: string, campaignId: string): Promise<void>;
  /** Appends rows (bulk, through the Appender); buffers are flushed by size and by flush(). */
  append(rows: TableRows): Promise<void>;
  /**
   * Commits the rows appended before the call; resolves once they are durable. Commits are
   * grouped (at most one per GROUP_COMMIT_MS), so a caller with more to fetch need not wait;
   * `now` starts the pending commit at once (the caller has nothing left to append).
   */
  flush(options?: { now?: boolean }): Promise<void>;
  close(): Promise<void>;
  /**
   * Closes the file like close(), running `work` on it first, once it is flushed (and
   * checkpointed, unless its WAL is small): the data checks, without reopening the file. Fails, closing the
   * file, if `work` does.
   */
  closeAfter<T>(work: (connection: DuckDBConnection) => Promise<T>): Promise<T>;
}

export interface PublishSyncInput {
  /** The staging file written by a StagingWriter (closed). */
  readonly stagingPath: string;
  readonly snapshotDate: string;
  /** Segments fully fetched by the run: their rows for snapshotDate are replaced. */
  readonly segments: readonly string[];
  readonly run: SyncRunRecord;
}

export interface PublishResult {
  /** Rows inserted per table by this publish. */
  readonly rowsByTable: Record<string, number>;
  readonly rowsWritten: number;
  readonly durationMs: number;
}

/** Rows the sink's loader moves from the inbox into the warehouse. */
export interface StreamBatch {
  readonly documents: Row[]; // stream_documents rows
  readonly deliveries: Row[]; // stream_deliveries rows
  readonly hooks: Row[]; // hooks rows (latest state of each hook, no secrets)
}

/** What the data checks (sql/checks/) read: a closed staging file and the run's segments. */
export interface DataCheckInput {
  readonly stagingPath: string;
  readonly snapshotDate: string;
  readonly runId: string;
  /** `sources`: the segment's network filter (the campaign detail may ignore it). */
  readonly segments: readonly { readonly name: string; readonly sources?: readonly string[] }[];
  /**
   * The data directory whose lake holds the previous snapshots the history checks compare
   * with (sql/checks/history/); without it they do not run.
   */
  readonly dataDir?: string;
  /** The history checks' tolerances (config `checks.history`); defaults: HISTORY_DEFAULTS. */
  readonly history?: HistorySettings;
}

/** Tolerances of the history checks (sql/checks/history/), set in the config file's `checks.history`. */
export interface HistorySettings {
  /** campaign_engagement_not_decreasing: a fall within this share of the previous figure passes. */
  readonly engagementTolerance: number;
  /** campaign_emv_not_decreasing: likewise for EMV. */
  readonly emvTolerance: number;
  /** post_engagement_not_decreasing: likewise for a post (unlikes and removed spam happen). */
  readonly postEngagementTolerance: number;
  /** campaign_engagement_anomaly: the band's half-width in scaled MADs of the past daily changes. */
  readonly anomalyWidth: number;
  /** campaign_engagement_anomaly: the band is never narrower than this share of the previous total. */
  readonly anomalyMinChange: number;
  /** campaign_engagement_anomaly: campaigns with fewer posts on the previous snapshot are not compared. */
  readonly anomalyMinPosts: number;
}

/** A field, stat or network the spec does not list, seen in a run. */
export interface DriftObservation {
  readonly segment: string;
  readonly level: string;
  readonly kind: string;
  readonly name: string;
  readonly occurrences: number;
}

export interface DataCheckOutcome {
  readonly results: readonly DataCheckResult[];
  readonly drift: readonly DriftObservation[];
  readonly durationMs: number;
  /** Of durationMs, the history checks' share (reading the previous snapshots included). */
  readonly historyMs: number;
  /** The lake files the history checks read (the previous snapshots' partitions they need). */
  readonly historyFiles: readonly string[];
  /** Set when the history checks could not run: the rule checks' results stand. */
  readonly historyError?: string;
}
