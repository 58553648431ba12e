/**
 * The Parquet lake behind warehouse.duckdb (docs/lake.md): the program's only way in from outside
 * src/warehouse/lake/, exactly the names the program uses. Tests and benchmarks have a second
 * door, testing.ts, which adds the internals they examine; a lint rule in biome.json keeps
 * other modules off the lake's files and src/ off testing.ts.
 *
 * Read first: lake-transaction.ts, the transaction through which every change goes (new
 * immutable version directories, then one link swap each), and publish-warehouse.ts, which
 * runs one under the publish lock. Then one folder per kind of table (src/contracts/table-registry.ts):
 *   facts/    fact tables: a file per segment and period (a day of the open ten days, closed
 *             ten days, a closed month of the open year, a closed year: core/lake-layout.ts),
 *             their consolidation into the larger periods, and the latest-snapshot trees
 *   stream/   the sink's parts, their exactly-once keys and the daily compaction
 *   tables/   entities (one file per month first seen) and small whole tables
 *   catalog/  warehouse.duckdb (views over the lake), its stamp, anchors, the upgrades of
 *             older layouts and releases
 *   core/     the layout, links, the tables' descriptions, the work session
 * Upkeep (maintain-lake.ts) compacts the stream's closed days, consolidates the facts' closed
 * periods (ten days, months, years) and sweeps replaced versions.
 */

export { type AfterPublish, setAfterPublish } from './after-publish.js';
export { type CatalogChange, catalogIsCurrent } from './catalog/ensure-lake.js';
export { refreshCatalog } from './catalog/refresh-catalog.js';
export { isSwapping, type LakeGeneration, readGeneration } from './core/lake-generation.js';
export { isDay, lakePath } from './core/lake-layout.js';
export type { LakeTable } from './core/lake-tables.js';
export {
  describeLakeFiles,
  type LakeFile,
  type LakeFileStats,
  type LakeTableFiles,
} from './describe-lake-files.js';
export { factRows, factVersion, fileHolding, recentFactDates } from './facts/fact-files.js';
export { replaceFacts } from './facts/replace-facts.js';
export type { LakeTransaction } from './lake-transaction.js';
export { type LiveLakeFile, type LiveLakeTable, liveLakeFiles } from './live-lake-files.js';
export { type MaintenanceResult, maintainLake } from './maintain-lake.js';
export { type BeforeRename, publishWarehouse } from './publish-warehouse.js';
export { StreamAppend } from './stream/append-stream.js';
export { retentionFromEnv } from './sweep-versions.js';
export { upsertEntities } from './tables/upsert-entities.js';
export { writeHooks } from './tables/write-hooks.js';
export { writeRunRecord } from './tables/write-run-record.js';
