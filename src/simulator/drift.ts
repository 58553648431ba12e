/**
 * Schema drift (the `drift` option): what a real server sends that the spec does not list,
 * applied deterministically to every influencer response so tests can predict it —
 * unknown extra fields, a network not in the spec (youtube), a stat not in the spec
 * (clicks), numbers sent as numeric strings, null metrics, and the campaign detail without
 * its `campaign` wrapper.
 */
type Json = Record<string, unknown>;

export const DRIFT_NETWORK = 'youtube';
export const DRIFT_STAT = 'clicks';
export const DRIFT_FIELD = 'x_partner_note';

export function driftCampaignBody(campaign: Json): Json {
  const metrics = campaign.metrics as Json;
  const sources = campaign.sources as Record<string, Json>;
  for (const entry of Object.values(sources)) {
    (entry.stats as Json)[DRIFT_STAT] = 7;
    entry.engagement = String(entry.engagement);
  }
  sources[DRIFT_NETWORK] = {
    num_posts: 0,
    num_influencers: 0,
    engagement: 0,
    engagement_rate: null,
    reach: 0,
    emv: 0,
    stats: { views: 0, [DRIFT_STAT]: 0 },
  };
  metrics.total_emv = String(metrics.total_emv);
  metrics.engagement_rate = null;
  // The bare object, without the {campaign: ...} wrapper.
  return { ...campaign, [DRIFT_FIELD]: 'drift' };
}

export function driftPost(post: Json): Json {
  (post.stats as Json)[DRIFT_STAT] = 3;
  return { ...post, engagement: String(post.engagement), reach: null, [DRIFT_FIELD]: 'drift' };
}

export function driftInfluencer(influencer: Json): Json {
  const metrics = influencer.campaign_metrics as Json;
  metrics.emv = String(metrics.emv);
  metrics.engagement_rate = null;
  const profile = influencer.influencer_metrics as Json;
  (profile.sources as Record<string, Json>)[DRIFT_NETWORK] = {
    id: 'yt-drift',
    username: 'drift.channel',
    followers: '1200',
    engagement_per_post: null,
    true_reach: 800,
  };
  return { ...influencer, [DRIFT_FIELD]: 'drift' };
}

export function driftListRecord(record: Json): Json {
  return { ...record, [DRIFT_FIELD]: 'drift' };
}
