/**
 * Recorded API pages for the load benchmark, generated in memory with a seeded PRNG so every
 * run loads the same data: posts and influencers pages shaped as docs/api-profile.md says.
 */
export type RawRecord = Record<string, unknown>;

export interface CampaignPages {
  readonly campaignId: string;
  readonly posts: RawRecord[][];
  readonly influencers: RawRecord[][];
}

/** The API's maximum page size: a sync asks for full pages. */
export const PAGE_SIZE = 100;

const NETWORK_STATS: Record<string, readonly string[]> = {
  instagram: ['comments', 'likes', 'impressions', 'reach', 'saved', 'views'],
  tiktok: ['comments', 'likes', 'views', 'shares'],
  facebook: ['comments', 'likes'],
  instagram_stories: ['impressions', 'reach', 'exits', 'replies', 'taps_back', 'taps_forward'],
};
const NETWORKS = Object.keys(NETWORK_STATS);

function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function pages<T>(items: T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += PAGE_SIZE) out.push(items.slice(i, i + PAGE_SIZE));
  return out;
}

/** `campaigns` campaigns of `postsPerCampaign` posts and `influencersPerCampaign` influencers. */
export function generatePages(
  campaigns: number,
  postsPerCampaign: number,
  influencersPerCampaign: number,
): CampaignPages[] {
  const random = prng(42);
  const int = (max: number) => Math.floor(random() * max);
  const result: CampaignPages[] = [];
  for (let c = 0; c < campaigns; c += 1) {
    const campaignId = String(1000 + c);
    const posts: RawRecord[] = [];
    for (let p = 0; p < postsPerCampaign; p += 1) {
      const network = NETWORKS[int(NETWORKS.length)]!;
      const stats: Record<string, number> = {};
      for (const stat of NETWORK_STATS[network]!) stats[stat] = int(50_000);
      posts.push({
        id: `${campaignId}-${p}`,
        influencer_id: String(int(influencersPerCampaign)),
        network,
        url: `https://social.example/${network}/${campaignId}/${p}`,
        published_at: new Date(Date.UTC(2026, 9, 1) + int(50 * 86_400_000)).toISOString(),
        engagement: int(100_000),
        reach: int(1_000_000),
        emv: Math.round(random() * 100_000) / 100,
        stats,
      });
    }
    const influencers: RawRecord[] = [];
    for (let i = 0; i < influencersPerCampaign; i += 1) {
      const sources: Record<string, RawRecord> = {};
      for (const network of NETWORKS.slice(0, 2)) {
        sources[network] = {
          id: String(int(1e9)),
          username: `user${i}_${network}`,
          followers: int(1e6),
          engagement_per_post: random() * 1000,
          true_reach: int(1e6),
        };
      }
      const stats: Record<string, number> = {
        comments: int(1e4),
        likes: int(1e5),
        views: int(1e6),
        impressions: int(1e6),
        reach: int(1e6),
        saved: int(1e3),
      };
      influencers.push({
        id: String(i),
        name: `Influencer ${i}`,
        budget: int(10_000),
        tags: [
          { id: '12', name: 'vip' },
          { id: String(40 + int(5)), name: 'region' },
        ],
        campaign_metrics: {
          num_posts: int(20),
          engagement: int(1e5),
          engagement_rate: random(),
          reach: int(1e6),
          emv: random() * 1e4,
          stats,
          sales: i % 3 === 0 ? { EUR: random() * 1e4, USD: random() * 1e4 } : undefined,
        },
        influencer_metrics: {
          influence: random() * 100,
          brand_score: random() * 10,
          true_reach: int(1e7),
          followers: int(1e7),
          sources,
        },
      });
    }
    result.push({ campaignId, posts: pages(posts), influencers: pages(influencers) });
  }
  return result;
}
