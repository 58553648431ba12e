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
  const metrics: Row[] = [];
  const sales: Row[] = [];
  const stats: Row[] = [];
  const entities: Row[] = [];
  const profiles: Row[] = [];
  const networkProfiles: Row[] = [];
  const tags: Row[] = [];
  const all = ctx.segment === 'all';
  for (const r of records) {
    const influencerId = toId(r.id);
    if (influencerId === null) continue;
    const key = {
      snapshot_date: ctx.snapshotDate,
      segment: ctx.segment,
      campaign_id: ctx.campaignId,
      influencer_id: influencerId,
    };
    const cm = objectAt(r, 'campaign_metrics') ?? {};
    metrics.push({
      ...key,
      num_posts: toCount(cm.num_posts),
      engagement: toCount(cm.engagement),
      engagement_rate: toNumber(cm.engagement_rate),
      reach: toCount(cm.reach),
      emv: toNumber(cm.emv),
      budget: toNumber(r.budget),
    });
    const bySales = objectAt(cm, 'sales');
    if (bySales)
      for (const currency in bySales) sales.push({ ...key, currency, amount: toNumber(bySales[currency]) });
    pushStatRows(stats, cm.stats, (stat, value) => ({
      snapshot_date: ctx.snapshotDate,
      segment: ctx.segment,
      campaign_id: ctx.campaignId,
      influencer_id: influencerId,
      stat,
      value,
    }));
    if (!all) continue;
    entities.push({
      influencer_id: influencerId,
      name: toText(r.name),
      raw: json(campaignIndependent(r)),
      first_seen_at: ctx.seenAt,
      last_seen_at: ctx.seenAt,
    });
    const im = objectAt(r, 'influencer_metrics');
    if (im) {
      profiles.push({
        snapshot_date: ctx.snapshotDate,
        influencer_id: influencerId,
        influence: toNumber(im.influence),
        brand_score: toNumber(im.brand_score),
        true_reach: toCount(im.true_reach),
        followers: toCount(im.followers),
      });
      const sources = objectAt(im, 'sources') ?? {};
      for (const network in sources) {
        const p = sources[network];
        if (!isRecord(p)) continue;
        networkProfiles.push({
          snapshot_date: ctx.snapshotDate,
          influencer_id: influencerId,
          network,
          profile_id: toId(p.id),
          username: toText(p.username),
          followers: toCount(p.followers),
          engagement_per_post: toNumber(p.engagement_per_post),
          true_reach: toCount(p.true_reach),
        });
      }
    }
    if (Array.isArray(r.tags)) {
      for (const tag of r.tags) {
        const tagId = isRecord(tag) ? toId(tag.id) : null;
        if (tagId !== null) {
          tags.push({
            snapshot_date: ctx.snapshotDate,
            campaign_id: ctx.campaignId,
            influencer_id: influencerId,
            tag_id: tagId,
          });
        }
      }
    }
  }
  const out: TableRows = {
    influencer_campaign_metrics: metrics,
    influencer_sales: sales,
    influencer_stats: stats,
  };
  if (all) {
    out.influencers = entities;
    out.influencer_profiles = profiles;
    out.influencer_network_profiles = networkProfiles;
    out.influencer_tag_assignments = tags;
  }
  return out;
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
