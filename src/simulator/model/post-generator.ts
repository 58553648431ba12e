/**
 * Posts are never stored: post i of a campaign is derived from (seed, campaign, i) with a
 * cheap integer hash, so a million posts cost no memory and any page is computed directly.
 * Its figures on a given day are its base figures times a day factor, so a daily history
 * moves from day to day.
 */
import type { Campaign, Influencer } from './entities.js';
import { type CampaignHistory, PUBLISHING_DAYS } from './history.js';
import { ENGAGEMENT_STATS, type Network, STATS_BY_NETWORK } from './networks.js';

/** What post generation reads of the catalog (catalog.ts). */
export interface PostCatalog {
  readonly seed: number;
  readonly influencerPool: readonly Influencer[];
  /** Per campaign index; undefined: figures only grow. */
  readonly histories: readonly CampaignHistory[] | undefined;
}

export interface Post {
  readonly id: string;
  readonly index: number;
  /** Index into campaign.influencers. */
  readonly slot: number;
  readonly influencer: Influencer;
  readonly network: Network;
  readonly followers: number;
  readonly url: string;
  readonly published_at: string;
  readonly engagement: number;
  readonly engagementRate: number;
  readonly reach: number;
  readonly emv: number;
  readonly stats: Readonly<Record<string, number>>;
}

/** EMV per engagement by network: a plausible spread, not a real price list. */
const EMV_PER_ENGAGEMENT: Readonly<Record<Network, number>> = {
  facebook: 0.09,
  instagram: 0.14,
  instagram_stories: 0.11,
  tiktok: 0.07,
};

/** 32-bit mix of a few integers (murmur3 finalizer style): fast, deterministic, well spread. */
export function mix32(a: number, b: number, c: number, d = 0): number {
  let h = (Math.imul(a ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(b + 0x632be5ab, 0xc2b2ae35)) >>> 0;
  h = (Math.imul(h ^ (h >>> 16), 0x7feb352d) + Math.imul(c + 0x3c6ef372, 0x165667b1)) >>> 0;
  h = (Math.imul(h ^ (h >>> 15), 0x846ca68b) + d) >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b) >>> 0;
  h ^= h >>> 13;
  return h >>> 0;
}

/** Uniform [0, 1) from the mix of (seed, campaign, post, salt). */
function unit(seed: number, c: number, i: number, salt: number): number {
  return mix32(seed, c, i, salt) / 4294967296;
}

/** Days since the Unix epoch of a YYYY-MM-DD date (pass the number to hot loops). */
export function dayNumber(day: string): number {
  return Math.floor(Date.parse(`${day}T00:00:00Z`) / 86_400_000);
}

/** Figures grow from this day on (2020-01-01); before it every factor is 1. */
const GROWTH_START_DAY = 18_262;
/** Daily growth of every figure: 0.1% of its base a day, visible but not explosive. */
const DAILY_GROWTH = 0.001;

/**
 * Growth of every figure on `day`: deterministic, never below 1, and never decreasing from
 * one day to the next (engagement and followers are cumulative counts). The per-`salt`
 * jitter stays under one day's growth, so figures move unevenly yet monotonically.
 */
export function dayFactor(day: string | number, salt: number): number {
  const d = (typeof day === 'number' ? day : dayNumber(day)) - GROWTH_START_DAY;
  if (d <= 0) return 1;
  const jitter = (mix32(salt, d, 0x9a11) / 4294967296) * 0.99;
  return 1 + DAILY_GROWTH * (d + jitter);
}

/** The network and influencer of post i: fixed for the post's life (filters depend on them). */
export function postPlacement(
  catalog: PostCatalog,
  campaign: Campaign,
  i: number,
): { slot: number; network: Network } {
  const seed = catalog.seed;
  // Skewed: the first influencers of a roster post most; the last ones may post nothing.
  const slot = Math.floor(campaign.influencers.length * unit(seed, campaign.index, i, 1) ** 2);
  const influencer = catalog.influencerPool[campaign.influencers[slot]!]!;
  const profile =
    influencer.profiles[Math.floor(influencer.profiles.length * unit(seed, campaign.index, i, 2))]!;
  return { slot, network: profile.network };
}

/** The figures of a post: what aggregates need, without the strings of the API record. */
export interface PostFigures {
  readonly slot: number;
  readonly network: Network;
  readonly followers: number;
  readonly engagement: number;
  readonly engagementRate: number;
  readonly reach: number;
  readonly emv: number;
  readonly stats: Readonly<Record<string, number>>;
}

/** Post i's figures on `day` (hot path of the campaign aggregates: no string building). */
export function postFigures(
  catalog: PostCatalog,
  campaign: Campaign,
  i: number,
  day: string | number,
): PostFigures {
  const seed = catalog.seed;
  const c = campaign.index;
  const { slot, network } = postPlacement(catalog, campaign, i);
  const influencer = catalog.influencerPool[campaign.influencers[slot]!]!;
  const followers = influencer.profiles.find((p) => p.network === network)!.followers;
  const history = catalog.histories?.[c];
  const dayN = typeof day === 'number' ? day : dayNumber(day);
  const published = history ? publishedDay(catalog, campaign, i) : 0;
  const factor = dayFactor(dayN, i) * (history ? history.scale(c, i, published, dayN) : 1);
  // Heavy tail: most posts get little engagement, a few go viral.
  const base = (followers * 0.02) / (unit(seed, c, i, 3) * 0.97 + 0.03) ** 0.6;
  const stats: Record<string, number> = {};
  let engagement = 0;
  const names = STATS_BY_NETWORK[network];
  for (let k = 0; k < names.length; k++) {
    const name = names[k]!;
    const share = 0.05 + unit(seed, c, i, 10 + k);
    let value = Math.round(base * share * factor * (ENGAGEMENT_STATS.has(name) ? 1 : 6));
    if (history && name === 'likes') value -= history.likesLost(c, i, value, dayN);
    stats[name] = value;
    if (ENGAGEMENT_STATS.has(name)) engagement += value;
  }
  const reach = Math.round((followers * (0.1 + 0.5 * unit(seed, c, i, 4)) + engagement * 2) * factor);
  return {
    slot,
    network,
    followers,
    engagement,
    engagementRate: followers > 0 ? Math.round((engagement / followers) * 1e6) / 1e6 : 0,
    reach,
    emv: Math.round(engagement * EMV_PER_ENGAGEMENT[network] * 100) / 100,
    stats,
  };
}

/** When post i was published (ms since the epoch): within its campaign's first PUBLISHING_DAYS. */
export function publishedAt(catalog: PostCatalog, campaign: Campaign, i: number): number {
  return (
    Date.parse(`${campaign.start_date}T00:00:00Z`) +
    Math.floor(unit(catalog.seed, campaign.index, i, 5) * PUBLISHING_DAYS * 86_400_000)
  );
}

/** The day number (see dayNumber) post i was published on. */
export function publishedDay(catalog: PostCatalog, campaign: Campaign, i: number): number {
  return Math.floor(publishedAt(catalog, campaign, i) / 86_400_000);
}

export function generatePost(
  catalog: PostCatalog,
  campaign: Campaign,
  i: number,
  day: string | number,
): Post {
  const figures = postFigures(catalog, campaign, i, day);
  const influencer = catalog.influencerPool[campaign.influencers[figures.slot]!]!;
  const published = publishedAt(catalog, campaign, i);
  return {
    slot: figures.slot,
    network: figures.network,
    followers: figures.followers,
    engagement: figures.engagement,
    engagementRate: figures.engagementRate,
    reach: figures.reach,
    emv: figures.emv,
    stats: figures.stats,
    id: `${campaign.id}-${i}`,
    index: i,
    influencer,
    url: `https://social.example/${figures.network}/p/${campaign.id}x${i}`,
    published_at: new Date(published).toISOString(),
  };
}
