/**
 * The data checks of the latest sync run, kept in the state database's `meta` table, so
 * that `status` and the sink's /metrics say which checks failed without opening DuckDB,
 * for a run that published and for one that `--strict` stopped before its publish.
 */

import type { DataCheckResult } from '../contracts/data-check-result.js';
import { eq } from './drizzle.js';
import { meta } from './schema.js';
import type { StateDb } from './state-db.js';

const KEY = 'data_checks';

export interface DataCheckRecord {
  readonly runId: string;
  readonly snapshotDate: string;
  readonly mode: 'warn' | 'strict';
  /** ISO-8601 UTC time the checks finished. */
  readonly checkedAt: string;
  readonly results: readonly DataCheckResult[];
  /** Set when the checks could not run (a default run then published unchecked). */
  readonly error?: string;
}

export function saveDataCheckRecord(state: StateDb, record: DataCheckRecord): void {
  const value = JSON.stringify(record);
  state.db
    .insert(meta)
    .values({ key: KEY, value, updatedAt: record.checkedAt })
    .onConflictDoUpdate({ target: meta.key, set: { value, updatedAt: record.checkedAt } })
    .run();
}

/** The latest run's record; undefined before the first checked run. */
export function loadDataCheckRecord(state: StateDb): DataCheckRecord | undefined {
  const row = state.db.select().from(meta).where(eq(meta.key, KEY)).get();
  return row ? (JSON.parse(row.value) as DataCheckRecord) : undefined;
}
