/** What a data check found, as the warehouse reports it and the state database keeps it. */

/** One check on one segment of a run. */
export interface DataCheckResult {
  readonly segment: string;
  readonly check: string;
  /**
   * 'rule': within the snapshot (sql/checks/); 'history': against the previous snapshots
   * (sql/checks/history/), which only warn. Records saved before history checks lack it: rule.
   */
  readonly kind?: 'rule' | 'history';
  /** History checks: the previous snapshot compared with (YYYY-MM-DD); absent when skipped for want of one. */
  readonly comparedWith?: string;
  /** 'skipped': nothing comparable (e.g. every figure NULL). */
  readonly status: 'passed' | 'failed' | 'skipped';
  readonly checked: number;
  readonly failing: number;
  readonly failingCampaigns: number;
  /** Failing campaign ids, sorted (reports list the first LISTED_CAMPAIGNS). */
  readonly campaigns: readonly string[];
}
