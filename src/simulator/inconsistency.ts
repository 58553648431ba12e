/**
 * Broken consistency (the `inconsistent` option): for chosen campaigns the simulator breaks
 * the rules its figures otherwise obey (api-v3.md; see model/figures.ts), so tests can
 * check that the data checks flag exactly those campaigns and entities. Applied to the
 * records of each response before drift, in every segment (filtered view) alike.
 *
 *   num_posts+N | num_posts-N  the campaign's metrics.num_posts off by N
 *   influencer                 the first listed influencer with posts: campaign_metrics
 *                              num_posts +1, engagement and emv +10% +1
 *   network                    the first network of `sources`: engagement and emv +10% +1
 *   reach                      every reach figure of the campaign tripled plus 17: breaks no
 *                              rule (reach never adds up), so no check may flag it
 */
type Json = Record<string, unknown>;

export type InconsistencyKind =
  | { readonly kind: 'num_posts'; readonly delta: number }
  | { readonly kind: 'influencer' | 'network' | 'reach' };

export type Inconsistency = InconsistencyKind & { readonly campaignId: string };

const SPEC = /^([^:,\s]+):(?:num_posts([+-]\d+)|(influencer|network|reach))$/;

/** Parses `<campaignId>:<kind>[,<campaignId>:<kind>...]`; throws naming the bad item. */
export function parseInconsistencies(text: string): Inconsistency[] {
  return text
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '')
    .map((item) => {
      const match = SPEC.exec(item);
      if (!match)
        throw new Error(
          `"${item}" is not <campaignId>:num_posts+N, :num_posts-N, :influencer, :network or :reach`,
        );
      const [, campaignId, delta, kind] = match;
      return delta === undefined
        ? { campaignId: campaignId!, kind: kind as 'influencer' | 'network' | 'reach' }
        : { campaignId: campaignId!, kind: 'num_posts', delta: Number(delta) };
    });
}

const off = (value: unknown): number => Math.round(Number(value) * 1.1) + 1;
const offMoney = (value: unknown): number => Math.round((Number(value) * 1.1 + 1) * 100) / 100;
const reach = (value: unknown): unknown => (typeof value === 'number' ? value * 3 + 17 : value);

/** A record's `reach` and, where its `stats` has one, `stats.reach`, broken. */
function breakReach(record: Json): void {
  record.reach = reach(record.reach);
  const stats = record.stats as Json | undefined;
  if (stats && 'reach' in stats) stats.reach = reach(stats.reach);
}

function faultsOf(list: readonly Inconsistency[], campaignId: string): Inconsistency[] {
  return list.filter((f) => f.campaignId === campaignId);
}

/** The campaign detail's `metrics` and `sources`, broken as asked. */
export function breakCampaignDetail(campaign: Json, list: readonly Inconsistency[]): void {
  const metrics = campaign.metrics as Json;
  const sources = campaign.sources as Record<string, Json>;
  for (const fault of faultsOf(list, String(campaign.id))) {
    if (fault.kind === 'num_posts') metrics.num_posts = Number(metrics.num_posts) + fault.delta;
    if (fault.kind === 'network') {
      const first = Object.values(sources)[0];
      if (first) {
        first.engagement = off(first.engagement);
        first.emv = offMoney(first.emv);
      }
    }
    if (fault.kind === 'reach') {
      metrics.total_reach = reach(metrics.total_reach);
      for (const entry of Object.values(sources)) breakReach(entry);
    }
  }
}

/** A page of posts, broken as asked (only reach: posts are what the other levels sum). */
export function breakPosts(campaignId: string, posts: readonly Json[], list: readonly Inconsistency[]): void {
  if (!faultsOf(list, campaignId).some((f) => f.kind === 'reach')) return;
  for (const post of posts) breakReach(post);
}

/** Every influencer in view (before paging), broken as asked. */
export function breakInfluencers(
  campaignId: string,
  influencers: readonly Json[],
  list: readonly Inconsistency[],
): void {
  for (const fault of faultsOf(list, campaignId)) {
    if (fault.kind === 'influencer') {
      const first = influencers.find((i) => Number((i.campaign_metrics as Json).num_posts) > 0);
      if (!first) continue;
      const metrics = first.campaign_metrics as Json;
      metrics.num_posts = Number(metrics.num_posts) + 1;
      metrics.engagement = off(metrics.engagement);
      metrics.emv = offMoney(metrics.emv);
    }
    if (fault.kind === 'reach') {
      for (const influencer of influencers) {
        breakReach(influencer.campaign_metrics as Json);
        const profile = influencer.influencer_metrics as Json;
        profile.true_reach = reach(profile.true_reach);
      }
    }
  }
}
