import type { PublishResult } from './types.js';

/** A publish's result from the rows it wrote per table and when it started (performance.now()). */
export function publishResult(rowsByTable: Record<string, number>, started: number): PublishResult {
  return { rowsByTable, rowsWritten: rowsWritten(rowsByTable), durationMs: performance.now() - started };
}

export function rowsWritten(rowsByTable: Record<string, number>): number {
  return Object.values(rowsByTable).reduce((sum, n) => sum + n, 0);
}
