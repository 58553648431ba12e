import type { RawRecord } from '../api/types.js';
import type { CampaignRowContext } from './campaign-row-context.js';
import { isRecord, json, objectAt, toCount, toId, toNumber, toText } from './coerce.js';
import type { Row, TableRows } from './rows.js';
import { pushStatRows } from './stat-rows.js';

/**
 * GET .../campaigns/{id}/influencers (one page) → `influencer_campaign_metrics` (with the
 * budget), `influencer_sales` (one row per currency; none without attribution),
 * `influencer_stats`; for the unfiltered view also the `influencers` entities,
 * `influencer_profiles`, `influencer_network_profiles` and `influencer_tag_assignments`
 * (campaign-independent figures, so taken once, unfiltered). Records without an id are skipped.
 */
export function normalizeInfluencers(records: readonly RawRecord[], ctx: CampaignRowContext): TableRows {
  const out = {
    influencer_campaign_metrics: [] as Row[],
    influencer_sales: [] as Row[],
    influencer_stats: [] as Row[],
    influencers: [] as Row[],
    influencer_profiles: [] as Row[],
    influencer_network_profiles: [] as Row[],
    influencer_tag_assignments: [] as Row[],
  };
  const all = ctx.segment === 'all';
  for (const r of records) {
    const influencerId = toId(r.id);
    if (influencerId === null) continue;
    pushCampaignFigures(out, r, ctx, influencerId);
    if (!all) continue;
    out.influencers.push({
      influencer_id: influencerId,
      name: toText(r.name),
      raw: json(campaignIndependent(r)),
      first_seen_at: ctx.seenAt,
      last_seen_at: ctx.seenAt,
    });
    pushProfiles(out, r, ctx, influencerId);
    pushTagAssignments(out.influencer_tag_assignments, r, ctx, influencerId);
  }
  const { influencer_campaign_metrics, influencer_sales, influencer_stats } = out;
  return all ? out : { influencer_campaign_metrics, influencer_sales, influencer_stats };
}

type InfluencerRows = Record<
  | 'influencer_campaign_metrics'
  | 'influencer_sales'
  | 'influencer_stats'
  | 'influencer_profiles'
  | 'influencer_network_profiles',
  Row[]
>;

/** The influencer's figures on the campaign (this segment): metrics with the budget, sales, stats. */
function pushCampaignFigures(
  out: InfluencerRows,
  r: RawRecord,
  ctx: CampaignRowContext,
  influencerId: string,
) {
  const key = {
    snapshot_date: ctx.snapshotDate,
    segment: ctx.segment,
    campaign_id: ctx.campaignId,
    influencer_id: influencerId,
  };
  const cm = objectAt(r, 'campaign_metrics') ?? {};
  const { refused } = ctx;
  out.influencer_campaign_metrics.push({
    ...key,
    num_posts: toCount(cm.num_posts, 'influencer_campaign_metrics.num_posts', refused),
    engagement: toCount(cm.engagement, 'influencer_campaign_metrics.engagement', refused),
    engagement_rate: toNumber(cm.engagement_rate, 'influencer_campaign_metrics.engagement_rate', refused),
    reach: toCount(cm.reach, 'influencer_campaign_metrics.reach', refused),
    emv: toNumber(cm.emv, 'influencer_campaign_metrics.emv', refused),
    budget: toNumber(r.budget, 'influencer_campaign_metrics.budget', refused),
  });
  const bySales = objectAt(cm, 'sales');
  if (bySales)
    for (const currency in bySales)
      out.influencer_sales.push({
        ...key,
        currency,
        amount: toNumber(bySales[currency], 'influencer_sales.amount', refused),
      });
  pushStatRows(out.influencer_stats, 'influencer_stats', cm.stats, refused, (stat, value) => ({
    snapshot_date: ctx.snapshotDate,
    segment: ctx.segment,
    campaign_id: ctx.campaignId,
    influencer_id: influencerId,
    stat,
    value,
  }));
}

/** `influencer_metrics`: the campaign-independent profile and one row per network profile. */
function pushProfiles(out: InfluencerRows, r: RawRecord, ctx: CampaignRowContext, influencerId: string) {
  const im = objectAt(r, 'influencer_metrics');
  if (!im) return;
  const { refused } = ctx;
  out.influencer_profiles.push({
    snapshot_date: ctx.snapshotDate,
    influencer_id: influencerId,
    influence: toNumber(im.influence, 'influencer_profiles.influence', refused),
    brand_score: toNumber(im.brand_score, 'influencer_profiles.brand_score', refused),
    true_reach: toCount(im.true_reach, 'influencer_profiles.true_reach', refused),
    followers: toCount(im.followers, 'influencer_profiles.followers', refused),
  });
  const sources = objectAt(im, 'sources') ?? {};
  for (const network in sources) {
    const p = sources[network];
    if (!isRecord(p)) continue;
    out.influencer_network_profiles.push({
      snapshot_date: ctx.snapshotDate,
      influencer_id: influencerId,
      network,
      profile_id: toId(p.id),
      username: toText(p.username),
      followers: toCount(p.followers, 'influencer_network_profiles.followers', refused),
      engagement_per_post: toNumber(
        p.engagement_per_post,
        'influencer_network_profiles.engagement_per_post',
        refused,
      ),
      true_reach: toCount(p.true_reach, 'influencer_network_profiles.true_reach', refused),
    });
  }
}

/** The influencer's `tags` as applied on the campaign. */
function pushTagAssignments(tags: Row[], r: RawRecord, ctx: CampaignRowContext, influencerId: string) {
  if (!Array.isArray(r.tags)) return;
  for (const tag of r.tags) {
    const tagId = isRecord(tag) ? toId(tag.id) : null;
    if (tagId !== null)
      tags.push({
        snapshot_date: ctx.snapshotDate,
        campaign_id: ctx.campaignId,
        influencer_id: influencerId,
        tag_id: tagId,
      });
  }
}

/**
 * The influencer entity keeps the record less its campaign-specific parts (`campaign_metrics`
 * and `budget`, stored per campaign in influencer_campaign_metrics / influencer_sales /
 * influencer_stats): the same influencer seen on several campaigns then has one raw record,
 * whatever order the campaigns were fetched in.
 */
function campaignIndependent(record: RawRecord): RawRecord {
  const { campaign_metrics: _metrics, budget: _budget, ...rest } = record;
  return rest;
}
