import type { RawRecord } from '../api/types.js';
import type { CampaignRowContext } from './campaign-row-context.js';
import { json, toCount, toId, toNumber, toText, toTimestamp } from './coerce.js';
import type { Row, TableRows } from './rows.js';
import { pushStatRows } from './stat-rows.js';

/**
 * GET .../campaigns/{id}/posts (one page) → `post_metrics`, `post_stats`, and for the
 * unfiltered view the `posts` entities (raw: the full record). Posts without an id are skipped.
 */
export function normalizePosts(records: readonly RawRecord[], ctx: CampaignRowContext): TableRows {
  const post_metrics: Row[] = [];
  const post_stats: Row[] = [];
  const posts: Row[] = [];
  const entities = ctx.segment === 'all';
  const { refused } = ctx;
  for (const r of records) {
    const postId = toId(r.id);
    if (postId === null) continue;
    const influencerId = toId(r.influencer_id);
    const network = toText(r.network);
    post_metrics.push({
      snapshot_date: ctx.snapshotDate,
      segment: ctx.segment,
      campaign_id: ctx.campaignId,
      post_id: postId,
      influencer_id: influencerId,
      network,
      engagement: toCount(r.engagement, 'post_metrics.engagement', refused),
      reach: toCount(r.reach, 'post_metrics.reach', refused),
      emv: toNumber(r.emv, 'post_metrics.emv', refused),
    });
    pushStatRows(post_stats, 'post_stats', r.stats, refused, (stat, value) => ({
      snapshot_date: ctx.snapshotDate,
      segment: ctx.segment,
      campaign_id: ctx.campaignId,
      post_id: postId,
      stat,
      value,
    }));
    if (entities) {
      posts.push({
        campaign_id: ctx.campaignId,
        post_id: postId,
        influencer_id: influencerId,
        network,
        url: toText(r.url),
        published_at: toTimestamp(r.published_at),
        raw: json(r),
        first_seen_at: ctx.seenAt,
        last_seen_at: ctx.seenAt,
      });
    }
  }
  return entities ? { post_metrics, post_stats, posts } : { post_metrics, post_stats };
}
