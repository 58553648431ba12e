/**
 * The simulator's data, as the API serves it and as tests compute expected figures from it.
 * Deterministic from the seed; lazily generated (see post-generator.ts); aggregates cached
 * per (campaign, day, filter) in a small LRU so paging through a campaign stays cheap.
 */
import { Catalog } from './catalog.js';
import {
  type CampaignFigures,
  campaignDetailBody,
  computeFigures,
  emptyTotals,
  INFLUENCER_REACH_DEDUP,
  rate,
  round2,
} from './figures.js';
import type { SimHistory } from './history.js';
import { dayFactor, dayNumber, generatePost, mix32, postPlacement, publishedDay } from './post-generator.js';
import type { SimSize } from './sim-size.js';

export interface ViewFilter {
  readonly tags?: readonly string[];
  readonly sources?: readonly string[];
}

/** The API refreshes figures daily between these UTC hours (api-v3.md, Limits). */
export const REFRESH_START_HOUR = 18;
export const REFRESH_END_HOUR = 21;
/** Aggregates of 64 (campaign, day, filter) views: a sync's working set, a few KB each. */
const FIGURE_CACHE_ENTRIES = 64;
/**
 * Post-index lists of 16 (campaign, filter) views: up to 4 bytes per post each, so even a
 * million-post campaign costs a few MB per entry.
 */
const INDEX_CACHE_ENTRIES = 16;

export class SimModel {
  readonly catalog: Catalog;
  private readonly figureCache = new Map<string, CampaignFigures>();
  private readonly indexCache = new Map<string, Int32Array>();

  constructor(seed: number, size: SimSize, history?: SimHistory) {
    this.catalog = new Catalog(seed, size, history);
  }

  /**
   * The day whose figures a request at `now` sees for a campaign: the latest completed
   * refresh; inside the refresh window each campaign flips from yesterday's to today's
   * figures at its own (deterministic) moment, so one request may mix both.
   */
  figureDay(campaignIndex: number, now: Date): string {
    const today = now.toISOString().slice(0, 10);
    const yesterday = new Date(now.getTime() - 86_400_000).toISOString().slice(0, 10);
    const hour = now.getUTCHours() + now.getUTCMinutes() / 60 + now.getUTCSeconds() / 3600;
    if (hour >= REFRESH_END_HOUR) return today;
    if (hour < REFRESH_START_HOUR) return yesterday;
    const elapsed = (hour - REFRESH_START_HOUR) / (REFRESH_END_HOUR - REFRESH_START_HOUR);
    const flipAt =
      mix32(this.catalog.seed, campaignIndex, Math.floor(now.getTime() / 86_400_000), 77) / 4294967296;
    return elapsed >= flipAt ? today : yesterday;
  }

  /**
   * Post indexes of a campaign in view on `day` (all of them when unfiltered, unless the
   * simulator has a history: then those there that day; see history.ts).
   */
  postIndexes(campaignId: string, filter: ViewFilter, day: string): ArrayLike<number> {
    const campaign = this.requireCampaign(campaignId);
    const history = this.catalog.histories?.[campaign.index];
    const key = `${campaignId}|${filterKey(filter)}${history ? `|${day}` : ''}`;
    const cached = recall(this.indexCache, key);
    if (cached) return cached;
    const tags = filter.tags?.length ? new Set(filter.tags) : undefined;
    const sources = filter.sources?.length ? new Set(filter.sources) : undefined;
    const dayN = dayNumber(day);
    const out: number[] = [];
    for (let i = 0; i < campaign.postCount; i++) {
      if (!tags && !sources && !history) {
        out.push(i);
        continue;
      }
      const { slot, network } = postPlacement(this.catalog, campaign, i);
      if (
        history &&
        !history.visible(campaign.index, i, network, publishedDay(this.catalog, campaign, i), dayN)
      )
        continue;
      if (sources && !sources.has(network)) continue;
      if (tags && !this.slotHasTag(campaign.influencers[slot]!, tags)) continue;
      out.push(i);
    }
    const indexes = Int32Array.from(out);
    remember(this.indexCache, key, indexes, INDEX_CACHE_ENTRIES);
    return indexes;
  }

  figures(campaignId: string, filter: ViewFilter, day: string): CampaignFigures {
    const key = `${campaignId}|${filterKey(filter)}|${day}`;
    const cached = recall(this.figureCache, key);
    if (cached) return cached;
    const campaign = this.requireCampaign(campaignId);
    const figures = computeFigures(this.catalog, campaign, this.postIndexes(campaignId, filter, day), day);
    remember(this.figureCache, key, figures, FIGURE_CACHE_ENTRIES);
    return figures;
  }

  /** The campaign object of GET /v3/influencers/campaigns/{id} (inside its `campaign` wrapper). */
  campaignDetail(campaignId: string, filter: ViewFilter, day: string): Record<string, unknown> {
    return campaignDetailBody(this.requireCampaign(campaignId), this.figures(campaignId, filter, day));
  }

  campaignListRecord(index: number): Record<string, unknown> {
    const c = this.catalog.campaigns[index]!;
    return {
      id: c.id,
      name: c.name,
      workspace_id: c.workspace_id,
      status: c.status,
      start_date: c.start_date,
      end_date: c.end_date,
    };
  }

  /** Every post in view, one at a time (a million posts never sit in memory at once). */
  *iteratePosts(
    campaignId: string,
    filter: ViewFilter,
    day: string,
    chunk = 1_000,
  ): Generator<Record<string, unknown>> {
    const total = this.postIndexes(campaignId, filter, day).length;
    for (let offset = 0; offset < total; offset += chunk)
      yield* this.posts(campaignId, filter, day, offset, chunk);
  }

  /** Posts in view, records as the posts endpoint returns them, from `offset`. */
  posts(
    campaignId: string,
    filter: ViewFilter,
    day: string,
    offset = 0,
    limit = Infinity,
  ): Record<string, unknown>[] {
    const campaign = this.requireCampaign(campaignId);
    const indexes = this.postIndexes(campaignId, filter, day);
    const out: Record<string, unknown>[] = [];
    const dayN = dayNumber(day);
    for (let k = offset; k < indexes.length && out.length < limit; k++) {
      const p = generatePost(this.catalog, campaign, indexes[k]!, dayN);
      out.push({
        id: p.id,
        influencer_id: p.influencer.id,
        network: p.network,
        url: p.url,
        published_at: p.published_at,
        engagement: p.engagement,
        reach: p.reach,
        emv: p.emv,
        stats: p.stats,
      });
    }
    return out;
  }

  /**
   * The campaign's influencers in view: the roster members passing the `tags` filter (and,
   * with a `sources` filter, having a profile on one of them). Their campaign_metrics count
   * only their posts in view; influencer_metrics are independent of the campaign.
   */
  influencers(campaignId: string, filter: ViewFilter, day: string): Record<string, unknown>[] {
    const campaign = this.requireCampaign(campaignId);
    const figures = this.figures(campaignId, filter, day);
    const tags = filter.tags?.length ? new Set(filter.tags) : undefined;
    const sources = filter.sources?.length ? new Set(filter.sources) : undefined;
    const out: Record<string, unknown>[] = [];
    campaign.influencers.forEach((poolIndex, slot) => {
      const inf = this.catalog.influencerPool[poolIndex]!;
      if (tags && !this.slotHasTag(poolIndex, tags)) return;
      if (sources && !inf.profiles.some((p) => sources.has(p.network))) return;
      const t = figures.bySlot.get(slot) ?? emptyTotals();
      const growth = dayFactor(day, poolIndex);
      const sales = campaign.sales[slot];
      const campaignMetrics: Record<string, unknown> = {
        num_posts: t.posts,
        engagement: t.engagement,
        engagement_rate: rate(t),
        reach: Math.round(t.reachSum * INFLUENCER_REACH_DEDUP),
        emv: round2(t.emv),
        stats: { ...t.stats },
      };
      if (sales) {
        const scaled: Record<string, number> = {};
        for (const [currency, amount] of Object.entries(sales)) scaled[currency] = round2(amount * growth);
        campaignMetrics.sales = scaled;
      }
      const profiles: Record<string, unknown> = {};
      let followers = 0;
      let trueReach = 0;
      for (const p of inf.profiles) {
        const f = Math.round(p.followers * growth);
        followers += f;
        trueReach += Math.round(p.true_reach * growth);
        profiles[p.network] = {
          id: p.id,
          username: p.username,
          followers: f,
          engagement_per_post: p.engagement_per_post,
          true_reach: Math.round(p.true_reach * growth),
        };
      }
      out.push({
        id: inf.id,
        name: inf.name,
        budget: campaign.budgets[slot] ?? null,
        tags: inf.tags.map((tag) => ({ id: tag.id, name: tag.name })),
        campaign_metrics: campaignMetrics,
        influencer_metrics: {
          influence: inf.influence,
          brand_score: inf.brand_score,
          // The whole audience, deduplicated across networks: not the campaign's reach (rule 3).
          true_reach: Math.round(trueReach * 0.8),
          followers,
          sources: profiles,
        },
      });
    });
    return out;
  }

  campaignIndex(campaignId: string): number | undefined {
    return this.catalog.campaign(campaignId)?.index;
  }

  private slotHasTag(poolIndex: number, tags: ReadonlySet<string>): boolean {
    return this.catalog.influencerPool[poolIndex]!.tags.some((t) => tags.has(t.id));
  }

  private requireCampaign(campaignId: string) {
    const campaign = this.catalog.campaign(campaignId);
    if (!campaign) throw new Error(`no such campaign ${campaignId}`);
    return campaign;
  }
}

function filterKey(filter: ViewFilter): string {
  const tags = filter.tags?.length ? [...filter.tags].sort().join(',') : '';
  const sources = filter.sources?.length ? [...filter.sources].sort().join(',') : '';
  return `${tags};${sources}`;
}

/** LRU read: a hit moves the entry to the young end of the Map's insertion order. */
function recall<V>(cache: Map<string, V>, key: string): V | undefined {
  const value = cache.get(key);
  if (value !== undefined) {
    cache.delete(key);
    cache.set(key, value);
  }
  return value;
}

/** LRU write: evicts the oldest entry beyond `capacity`. */
function remember<V>(cache: Map<string, V>, key: string, value: V, capacity: number): void {
  cache.set(key, value);
  if (cache.size > capacity) cache.delete(cache.keys().next().value as string);
}
