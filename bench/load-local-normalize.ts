import type { Row, RowContext, TableRows } from '../src/normalize/rows.js';
import type { RawRecord } from './load-pages.js';

/** The normalizers' signature (src/normalize/index.ts). */
export type Normalize = (records: RawRecord[], ctx: RowContext & { campaignId: string }) => TableRows;

const num = (value: unknown): number | null =>
  typeof value === 'number' ? value : value == null ? null : Number(value);
const text = (value: unknown): string | null => (value == null ? null : String(value));

/**
 * Stand-ins used only while src/normalize/index.ts does not exist yet: the same mapping
 * (records in, rows out, no I/O) kept minimal, so the bench measures the load path.
 */
export const localNormalizePosts: Normalize = (records, ctx) => {
  const { snapshotDate, segment, campaignId } = ctx;
  const posts: Row[] = [];
  const postMetrics: Row[] = [];
  const postStats: Row[] = [];
  for (const record of records) {
    const postId = text(record.id);
    if (ctx.segment === 'all') {
      posts.push({
        campaign_id: ctx.campaignId,
        post_id: postId,
        influencer_id: text(record.influencer_id),
        network: text(record.network),
        url: text(record.url),
        published_at: text(record.published_at),
        raw: JSON.stringify(record),
        first_seen_at: ctx.seenAt,
        last_seen_at: ctx.seenAt,
      });
    }
    postMetrics.push({
      snapshot_date: snapshotDate,
      segment,
      campaign_id: campaignId,
      post_id: postId,
      influencer_id: text(record.influencer_id),
      network: text(record.network),
      engagement: num(record.engagement),
      reach: num(record.reach),
      emv: num(record.emv),
    });
    const stats = (record.stats ?? {}) as Record<string, unknown>;
    for (const stat in stats) {
      postStats.push({
        snapshot_date: snapshotDate,
        segment,
        campaign_id: campaignId,
        post_id: postId,
        stat,
        value: num(stats[stat]),
      });
    }
  }
  return { posts, post_metrics: postMetrics, post_stats: postStats };
};

export const localNormalizeInfluencers: Normalize = (records, ctx) => {
  const base = { snapshot_date: ctx.snapshotDate, segment: ctx.segment, campaign_id: ctx.campaignId };
  const out: Required<
    Pick<
      TableRows,
      | 'influencers'
      | 'influencer_campaign_metrics'
      | 'influencer_sales'
      | 'influencer_stats'
      | 'influencer_profiles'
      | 'influencer_network_profiles'
      | 'influencer_tag_assignments'
    >
  > = {
    influencers: [],
    influencer_campaign_metrics: [],
    influencer_sales: [],
    influencer_stats: [],
    influencer_profiles: [],
    influencer_network_profiles: [],
    influencer_tag_assignments: [],
  };
  for (const record of records) {
    const influencerId = text(record.id);
    const cm = (record.campaign_metrics ?? {}) as Record<string, unknown>;
    const im = (record.influencer_metrics ?? {}) as Record<string, unknown>;
    out.influencers.push({
      influencer_id: influencerId,
      name: text(record.name),
      raw: JSON.stringify(record),
      first_seen_at: ctx.seenAt,
      last_seen_at: ctx.seenAt,
    });
    out.influencer_campaign_metrics.push({
      ...base,
      influencer_id: influencerId,
      num_posts: num(cm.num_posts),
      engagement: num(cm.engagement),
      engagement_rate: num(cm.engagement_rate),
      reach: num(cm.reach),
      emv: num(cm.emv),
      budget: num(record.budget),
    });
    for (const [currency, amount] of Object.entries((cm.sales ?? {}) as Record<string, unknown>))
      out.influencer_sales.push({ ...base, influencer_id: influencerId, currency, amount: num(amount) });
    for (const [stat, value] of Object.entries((cm.stats ?? {}) as Record<string, unknown>))
      out.influencer_stats.push({ ...base, influencer_id: influencerId, stat, value: num(value) });
    if (ctx.segment !== 'all') continue;
    out.influencer_profiles.push({
      snapshot_date: ctx.snapshotDate,
      influencer_id: influencerId,
      influence: num(im.influence),
      brand_score: num(im.brand_score),
      true_reach: num(im.true_reach),
      followers: num(im.followers),
    });
    for (const [network, source] of Object.entries(
      (im.sources ?? {}) as Record<string, Record<string, unknown>>,
    )) {
      out.influencer_network_profiles.push({
        snapshot_date: ctx.snapshotDate,
        influencer_id: influencerId,
        network,
        profile_id: text(source.id),
        username: text(source.username),
        followers: num(source.followers),
        engagement_per_post: num(source.engagement_per_post),
        true_reach: num(source.true_reach),
      });
    }
    for (const tag of (record.tags ?? []) as Record<string, unknown>[])
      out.influencer_tag_assignments.push({
        snapshot_date: ctx.snapshotDate,
        campaign_id: ctx.campaignId,
        influencer_id: influencerId,
        tag_id: text(tag.id),
      });
  }
  return out;
};
