import { lakePath } from './core/lake-layout.js';
import { consolidateFacts } from './facts/consolidate-facts.js';
import { publishWarehouse } from './publish-warehouse.js';
import { compactStream } from './stream/compact-stream.js';
import { retentionFromEnv, sweepVersions } from './sweep-versions.js';

export interface MaintenanceResult {
  /** Closed days whose sink parts were merged, per stream table. */
  readonly compacted: Record<string, number>;
  /**
   * Files written for closed periods (ten days, months, years), each consolidated from the
   * smaller periods' files it replaces, per fact table.
   */
  readonly closedPeriodFiles: Record<string, number>;
  /** Version directories removed after the retention period. */
  readonly removed: number;
}

/**
 * Lake upkeep, run by the sink's loader (at most every few minutes, and after midnight UTC)
 * and after each sync: merges closed days' sink parts (compactStream), consolidates the fact
 * tables' closed periods into ten-day, month and year files (consolidateFacts), then removes
 * version directories no longer live once older than the retention period (sweepVersions,
 * CW_LAKE_RETENTION_MINUTES). Under the publish lock like a publish.
 */
export async function maintainLake(
  dataDir: string,
  options: { now?: Date; retentionMs?: number } = {},
): Promise<MaintenanceResult> {
  const now = options.now ?? new Date();
  const retentionMs = options.retentionMs ?? retentionFromEnv();
  let compacted: Record<string, number> = {};
  let closedPeriodFiles: Record<string, number> = {};
  let removed = 0;
  await publishWarehouse(
    dataDir,
    async (tx) => {
      compacted = await compactStream(tx, now.toISOString().slice(0, 10));
      closedPeriodFiles = await consolidateFacts(tx);
    },
    {
      afterCommit: () => {
        removed = sweepVersions(lakePath(dataDir), retentionMs, now.getTime());
      },
    },
  );
  return { compacted, closedPeriodFiles, removed };
}
