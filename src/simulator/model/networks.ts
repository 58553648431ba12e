/** The spec's supported networks and which `stats` fields each reports (api-v3.md "stats object"). */
export const NETWORKS = ['facebook', 'instagram', 'instagram_stories', 'tiktok'] as const;
export type Network = (typeof NETWORKS)[number];

export const STATS_BY_NETWORK: Readonly<Record<Network, readonly string[]>> = {
  facebook: ['comments', 'likes'],
  instagram: ['comments', 'likes', 'impressions', 'reach', 'saved', 'views'],
  instagram_stories: ['impressions', 'reach', 'exits', 'replies', 'taps_back', 'taps_forward'],
  tiktok: ['comments', 'likes', 'views', 'shares'],
};

/** Stats that count as engagement (interactions), per network; impressions, reach and views do not. */
export const ENGAGEMENT_STATS: ReadonlySet<string> = new Set([
  'comments',
  'likes',
  'saved',
  'shares',
  'replies',
  'taps_back',
  'taps_forward',
  'exits',
]);
