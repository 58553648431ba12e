/**
 * The warehouse module, the one place that opens DuckDB (see types.ts for the contract): code
 * outside src/warehouse/ imports it from here. Two light modules are imported directly, so that
 * commands that never touch the warehouse do not load DuckDB: duckdb-allocator.ts (imported
 * first by the CLI and the benchmarks, before anything loads DuckDB) and
 * checks/history-defaults.ts (read while a command's config is resolved).
 *
 * It re-exports the table registry (src/contracts/table-registry.ts, every table declared once).
 * Inside: staging/ is a sync's private file;
 * lake/ (its own entry, lake/index.ts) is the Parquet lake and its catalog, written by
 * publish-sync.ts (the extractor), publish-stream.ts (the sink) and publish-run-record.ts;
 * read/ is every reader's way in; checks/ runs the data checks on a staging file.
 */

export * from '../contracts/table-registry.js';
export { HISTORY_DEFAULTS } from './checks/history-defaults.js';
export { listDataChecks, runDataChecks } from './checks/run-data-checks.js';
export { applyMigrations, listMigrations, type Migration } from './duckdb/apply-migrations.js';
export { createViews, listViews, type ViewDefinition } from './duckdb/create-views.js';
export {
  type OpenDatabase,
  openDatabase,
  openWriter,
  PUBLISH_SETTINGS,
  STAGING_SETTINGS,
} from './duckdb/open-database.js';
export { type RepairedText, repairedTextMessage, takeRepairedText } from './duckdb/text-repairs.js';
export {
  publishedPath,
  publishLockPath,
  sqlIdentifier,
  sqlString,
  stagingPath,
} from './duckdb/warehouse-paths.js';
export {
  type AfterPublish,
  type CatalogChange,
  catalogIsCurrent,
  describeLakeFiles,
  type LakeFile,
  type LakeFileStats,
  type LakeTableFiles,
  type LiveLakeFile,
  type LiveLakeTable,
  liveLakeFiles,
  type MaintenanceResult,
  maintainLake,
  refreshCatalog,
  retentionFromEnv,
  setAfterPublish,
} from './lake/index.js';
export { publishRunRecord } from './publish-run-record.js';
export { publishStream } from './publish-stream.js';
export { publishSync } from './publish-sync.js';
export { formatResult, QUERY_FORMATS, type QueryFormat } from './read/format-result.js';
export {
  type QueryResult,
  queryReadOnly,
  type ReadQuery,
  requirePublished,
  toPlain,
  withReadOnly,
} from './read/query-read-only.js';
export { queryUserSql } from './read/query-user-sql.js';
export { openStaging } from './staging/open-staging.js';
export type {
  DataCheckInput,
  DataCheckOutcome,
  DataCheckResult,
  DriftObservation,
  HistorySettings,
  PublishResult,
  PublishSyncInput,
  StagingWriter,
  StreamBatch,
  SyncRunRecord,
} from './types.js';
