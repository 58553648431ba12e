/**
 * Contract between normalization (pure: API records in, rows out) and the warehouse
 * (which appends rows to the DuckDB tables of sql/migrations). A row is keyed by column
 * name; values are plain JS values, converted to the column's DuckDB type on load:
 * dates and timestamps as ISO-8601 strings, counts as numbers (integers), rates and money
 * as numbers, JSON columns as already-serialized JSON text, missing values as null.
 */
export type Value = string | number | boolean | null;
export type Row = Record<string, Value>;

export const FACT_TABLES = [
  'campaign_metrics',
  'campaign_network_metrics',
  'campaign_network_stats',
  'post_metrics',
  'post_stats',
  'influencer_campaign_metrics',
  'influencer_sales',
  'influencer_stats',
  'influencer_profiles',
  'influencer_network_profiles',
  'influencer_tag_assignments',
  // What the data checks found in the run's figures (sql/checks/, src/warehouse/run-data-checks.ts).
  'check_results',
  'check_failures',
  'drift_observations',
] as const;

export const ENTITY_TABLES = ['workspaces', 'influencer_tags', 'campaigns', 'influencers', 'posts'] as const;

export type FactTable = (typeof FACT_TABLES)[number];
export type EntityTable = (typeof ENTITY_TABLES)[number];
export type TableName = FactTable | EntityTable;

/** Rows produced from one API response, per table. */
export type TableRows = Partial<Record<TableName, Row[]>>;

/** Where the rows of a response belong. */
export interface RowContext {
  /** YYYY-MM-DD */
  readonly snapshotDate: string;
  /** 'all' for the unfiltered view, else the configured segment name. */
  readonly segment: string;
  /** ISO-8601 time the run saw the record (first/last seen of entities). */
  readonly seenAt: string;
}
