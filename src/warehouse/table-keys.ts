import type { EntityTable, FactTable } from '../normalize/rows.js';

/**
 * The documented key of each table (sql/warehouse/migrations: not declared as constraints
 * so bulk loads stay fast; publishing enforces them). Facts with `segment` are replaced per
 * (snapshot_date, segment); the others per snapshot_date.
 */
export const FACT_KEYS: Record<FactTable, readonly string[]> = {
  campaign_metrics: ['snapshot_date', 'segment', 'campaign_id'],
  campaign_network_metrics: ['snapshot_date', 'segment', 'campaign_id', 'network'],
  campaign_network_stats: ['snapshot_date', 'segment', 'campaign_id', 'network', 'stat'],
  post_metrics: ['snapshot_date', 'segment', 'campaign_id', 'post_id'],
  post_stats: ['snapshot_date', 'segment', 'campaign_id', 'post_id', 'stat'],
  influencer_campaign_metrics: ['snapshot_date', 'segment', 'campaign_id', 'influencer_id'],
  influencer_sales: ['snapshot_date', 'segment', 'campaign_id', 'influencer_id', 'currency'],
  influencer_stats: ['snapshot_date', 'segment', 'campaign_id', 'influencer_id', 'stat'],
  influencer_profiles: ['snapshot_date', 'influencer_id'],
  influencer_network_profiles: ['snapshot_date', 'influencer_id', 'network'],
  influencer_tag_assignments: ['snapshot_date', 'campaign_id', 'influencer_id', 'tag_id'],
  check_results: ['snapshot_date', 'segment', 'check_name'],
  check_failures: ['snapshot_date', 'segment', 'check_name', 'campaign_id', 'entity_id'],
  drift_observations: ['snapshot_date', 'segment', 'level', 'kind', 'name'],
};

/** Facts without `segment`: fetched from the unfiltered view only ('all'). */
export const UNSEGMENTED_FACTS: readonly FactTable[] = [
  'influencer_profiles',
  'influencer_network_profiles',
  'influencer_tag_assignments',
];

export const ENTITY_KEYS: Record<EntityTable, readonly string[]> = {
  workspaces: ['workspace_id'],
  influencer_tags: ['tag_id'],
  campaigns: ['campaign_id'],
  influencers: ['influencer_id'],
  posts: ['campaign_id', 'post_id'],
};

/** The segment of the unfiltered figures. */
export const ALL_SEGMENT = 'all';

/**
 * Tables whose staged rows are unique on their key by construction, so publishing them
 * needs no deduplication: a unit's posts are deduplicated by id as they are fetched
 * (pipelines/campaign-pipeline.ts, uniqueBy) and a unit is cleared before it is fetched
 * again. Every other table is deduplicated at publish (its rows repeat across units:
 * an influencer in several campaigns).
 */
export const STAGED_UNIQUE: readonly string[] = ['post_metrics', 'post_stats', 'posts'];
