/**
 * The lake's second door, for tests and benchmarks only (src/ may not import it: biome.json):
 * everything index.ts exports, plus the internals they examine (the layout's names and periods,
 * the version links, the stamp, the stream's merge plan, the sweep).
 */

export { readStamp, writeStamp } from './catalog/catalog-stamp.js';
export { FSYNC_CONCURRENCY, fsyncPaths } from './core/fsync-path.js';
export { GENERATION_FILE, swappingLinks } from './core/lake-generation.js';
export {
  closedPeriodOf,
  comparePeriods,
  dataFileName,
  FACT_LAYOUT,
  factFileName,
  factFilePlace,
  factLabel,
  isYear,
  LAKE_DIR_NAME,
  labelOf,
  monthOf,
  nextTenDays,
  parseFactFile,
  partitionName,
  periodEnd,
  periodLastDate,
  periodStart,
  periodsOf,
  publishPeriodsOf,
  tenDaysOf,
  versionsPath,
} from './core/lake-layout.js';
export { linkedFiles, linkTarget, versionFiles } from './core/link-target.js';
export { readFactFile } from './facts/fact-files.js';
export { PERIOD_ROW_GROUP_SIZE } from './facts/write-period.js';
export { JSON_CHECKED_FILE } from './heal-broken-json.js';
export * from './index.js';
export { planStreamMerge, STREAM_MERGE_FANOUT, streamTier } from './stream/merge-stream-parts.js';
export { StreamKeys } from './stream/stream-keys.js';
export { liveTargets, sweepVersions } from './sweep-versions.js';
