/**
 * Aggregates of a campaign's posts in view (after the `sources` / `tags` filters) on a day,
 * computed in one pass. The consistency rules of the real service hold: counts, engagement,
 * emv and stats are sums over the posts in view; reach is NOT a sum (api-v3.md, rules on
 * reach): a network's reach is its deduplicated audience (85% of the posts' reach), the
 * campaign's total_reach deduplicates across networks (70% of the networks' reach), and an
 * influencer's campaign reach 90% of its posts' reach.
 */
import type { Campaign, Catalog } from './catalog.js';
import { dayNumber, type PostFigures, postFigures } from './post-generator.js';

export interface Totals {
  posts: number;
  engagement: number;
  emv: number;
  reachSum: number;
  rateSum: number;
  influencers: Set<number>;
  stats: Record<string, number>;
}

export interface CampaignFigures {
  readonly total: Totals;
  readonly byNetwork: ReadonlyMap<string, Totals>;
  /** Keyed by slot (index into campaign.influencers). */
  readonly bySlot: ReadonlyMap<number, Totals>;
}

export const NETWORK_REACH_DEDUP = 0.85;
export const CAMPAIGN_REACH_DEDUP = 0.7;
export const INFLUENCER_REACH_DEDUP = 0.9;

export function emptyTotals(): Totals {
  return { posts: 0, engagement: 0, emv: 0, reachSum: 0, rateSum: 0, influencers: new Set(), stats: {} };
}

function add(t: Totals, post: PostFigures): void {
  t.posts++;
  t.engagement += post.engagement;
  t.emv += post.emv;
  t.reachSum += post.reach;
  t.rateSum += post.engagementRate;
  t.influencers.add(post.slot);
  for (const name in post.stats) t.stats[name] = (t.stats[name] ?? 0) + post.stats[name]!;
}

export function computeFigures(
  catalog: Catalog,
  campaign: Campaign,
  indices: ArrayLike<number>,
  day: string,
): CampaignFigures {
  const total = emptyTotals();
  const byNetwork = new Map<string, Totals>();
  const bySlot = new Map<number, Totals>();
  const dayN = dayNumber(day);
  for (let k = 0; k < indices.length; k++) {
    const post = postFigures(catalog, campaign, indices[k]!, dayN);
    add(total, post);
    add(totalsOf(byNetwork, post.network), post);
    add(totalsOf(bySlot, post.slot), post);
  }
  return { total, byNetwork, bySlot };
}

function totalsOf<K>(map: Map<K, Totals>, key: K): Totals {
  let totals = map.get(key);
  if (!totals) {
    totals = emptyTotals();
    map.set(key, totals);
  }
  return totals;
}

export const round2 = (x: number): number => Math.round(x * 100) / 100;
export const rate = (t: Totals): number =>
  t.posts === 0 ? 0 : Math.round((t.rateSum / t.posts) * 1e6) / 1e6;

/** The `metrics` object and `sources` entries of the campaign detail, per the spec. */
export function campaignDetailBody(campaign: Campaign, figures: CampaignFigures): Record<string, unknown> {
  const sources: Record<string, unknown> = {};
  let networkReach = 0;
  for (const [network, t] of figures.byNetwork) {
    const reach = Math.round(t.reachSum * NETWORK_REACH_DEDUP);
    networkReach += reach;
    sources[network] = {
      num_posts: t.posts,
      num_influencers: t.influencers.size,
      engagement: t.engagement,
      engagement_rate: rate(t),
      reach,
      emv: round2(t.emv),
      stats: { ...t.stats },
    };
  }
  const t = figures.total;
  return {
    id: campaign.id,
    name: campaign.name,
    workspace_id: campaign.workspace_id,
    status: campaign.status,
    start_date: campaign.start_date,
    end_date: campaign.end_date,
    metrics: {
      num_posts: t.posts,
      num_influencers: t.influencers.size,
      total_engagement: t.engagement,
      engagement_rate: rate(t),
      total_reach: Math.round(networkReach * CAMPAIGN_REACH_DEDUP),
      total_emv: round2(t.emv),
    },
    sources,
  };
}
