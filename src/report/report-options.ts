/** What `campaign-warehouse report` accepts, validated at the edge, and its defaults. */
import { join } from 'node:path';
import { ALL_SEGMENT } from '../contracts/table-registry.js';
import { UserError } from '../util/user-error.js';

/** A month of nightly snapshots: trends show, and the scans stay a small slice of the history. */
export const DEFAULT_DAYS = 30;
/** Longest window accepted: a century of nightly snapshots is more than any warehouse holds. */
export const MAX_DAYS = 36_500;
/** The unfiltered view, the one every sync fetches. */
export const DEFAULT_SEGMENT = ALL_SEGMENT;
/** The report's file, in the data directory unless --out says otherwise. */
export const REPORT_FILE_NAME = 'report.html';
/** Campaigns followed over time when none are named: more lines than this in one chart blur. */
export const TOP_CAMPAIGNS = 5;
/** Influencers in the ranking: one screen of bars. */
export const TOP_INFLUENCERS = 10;
/** Campaigns in "what changed": the largest moves since the previous snapshot, one screen of bars. */
export const TOP_CHANGES = 10;
/** Data-check disagreements listed: enough to see the pattern; `query` shows them all. */
export const MAX_CHECK_FAILURES = 50;

export interface ReportOptions {
  readonly dataDir: string;
  /** The HTML file to write. */
  readonly out: string;
  /** Campaign ids to report on; empty: every campaign (the top TOP_CAMPAIGNS over time). */
  readonly campaigns: readonly string[];
  readonly segment: string;
  readonly days: number;
}

export function defaultReportPath(dataDir: string): string {
  return join(dataDir, REPORT_FILE_NAME);
}

/** --days: a positive whole number of days, at most MAX_DAYS. */
export function parseDays(value: string): number {
  const days = /^\d+$/.test(value.trim()) ? Number(value.trim()) : Number.NaN;
  if (!Number.isSafeInteger(days) || days < 1 || days > MAX_DAYS)
    throw new UserError(`--days must be a positive integer (1 to ${MAX_DAYS}), not "${value}"`);
  return days;
}

/** The first snapshot date of a window of `days` days ending at `to` (YYYY-MM-DD). */
export function windowStart(to: string, days: number): string {
  const start = new Date(`${to}T00:00:00Z`);
  start.setUTCDate(start.getUTCDate() - (days - 1));
  return start.toISOString().slice(0, 10);
}
