import { filterQuery } from './filter-query.js';
import type { Requester } from './requester.js';
import type { ApiClient } from './types.js';

type InfluencerEndpoints = Pick<
  ApiClient,
  'workspaces' | 'tags' | 'campaigns' | 'campaign' | 'campaignPosts' | 'campaignInfluencers'
>;

const campaignPath = (id: string) => `/v3/influencers/campaigns/${encodeURIComponent(id)}`;

/** The workspaces and the influencer endpoints: lists page by page, a campaign unwrapped. */
export function influencerEndpoints(api: Requester): InfluencerEndpoints {
  return {
    workspaces: () => api.list('/v3/accounts/me/partner/workspaces', 'workspaces'),
    tags: () => api.list('/v3/influencers/tags', 'tags'),
    campaigns: () => api.list('/v3/influencers/campaigns', 'campaigns'),
    async campaign(campaignId, filter) {
      const path = campaignPath(campaignId);
      return api.unwrap(await api.get(path, filterQuery(filter)), 'campaign', `GET ${path}`);
    },
    campaignPosts: (campaignId, filter) =>
      api.list(`${campaignPath(campaignId)}/posts`, 'posts', filterQuery(filter)),
    campaignInfluencers: (campaignId, filter) =>
      api.list(`${campaignPath(campaignId)}/influencers`, 'influencers', filterQuery(filter)),
  };
}
