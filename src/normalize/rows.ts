/**
 * Normalization's side of the rows: where the rows of a response belong. The rows themselves
 * (Row, Value, TableRows), the contract between normalization and the warehouse, are in
 * src/contracts/rows.ts, re-exported here for normalization's own files.
 */
import type { RefusedValues } from './refused-values.js';

export type { Row, TableName, TableRows, Value } from '../contracts/rows.js';

/** Where the rows of a response belong. */
export interface RowContext {
  /** YYYY-MM-DD */
  readonly snapshotDate: string;
  /** 'all' for the unfiltered view, else the configured segment name. */
  readonly segment: string;
  /** ISO-8601 time the run saw the record (first/last seen of entities). */
  readonly seenAt: string;
  /** Counts the values stored as NULL because their column cannot hold them as sent (the run reports them). */
  readonly refused?: RefusedValues;
}
