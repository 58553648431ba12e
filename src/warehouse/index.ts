/** The warehouse module: the one place that opens DuckDB (see types.ts for the contract). */
export { applyMigrations, listMigrations } from './apply-migrations.js';
export { createViews, listViews } from './create-views.js';
export { type MaintenanceResult, maintainLake } from './maintain-lake.js';
export { openStaging } from './open-staging.js';
export { publishRunRecord } from './publish-run-record.js';
export { publishStream } from './publish-stream.js';
export { publishSync } from './publish-sync.js';
export { type QueryResult, queryReadOnly, type ReadQuery, withReadOnly } from './query-read-only.js';
export { listDataChecks, runDataChecks } from './run-data-checks.js';
export type {
  DataCheckInput,
  DataCheckOutcome,
  DataCheckResult,
  DriftObservation,
  PublishResult,
  PublishSyncInput,
  StagingWriter,
  StreamBatch,
  SyncRunRecord,
} from './types.js';
export { publishedPath, stagingPath } from './warehouse-paths.js';
