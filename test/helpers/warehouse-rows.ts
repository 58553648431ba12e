import type { Row, TableRows } from '../../src/normalize/rows.js';
import type { SyncRunRecord } from '../../src/warehouse/types.js';

/** A small, readable snapshot of one campaign for one segment, as normalization would emit it. */
export function sampleUnitRows(options: {
  snapshotDate: string;
  segment: string;
  campaignId?: string;
  seenAt?: string;
  posts?: number;
}): TableRows {
  const { snapshotDate, segment } = options;
  const campaignId = options.campaignId ?? 'c1';
  const seenAt = options.seenAt ?? `${snapshotDate}T19:00:00Z`;
  const base = { snapshot_date: snapshotDate, segment, campaign_id: campaignId };
  const postCount = options.posts ?? 4;
  const networks = ['instagram', 'tiktok'];
  const posts: Row[] = [];
  const postMetrics: Row[] = [];
  const postStats: Row[] = [];
  for (let i = 0; i < postCount; i += 1) {
    const network = networks[i % 2]!;
    const postId = `p${i}`;
    const influencerId = `i${i % 2}`;
    posts.push({
      campaign_id: campaignId,
      post_id: postId,
      influencer_id: influencerId,
      network,
      url: `https://example.test/${postId}`,
      published_at: '2026-11-01T10:00:00Z',
      raw: JSON.stringify({ id: postId }),
      first_seen_at: seenAt,
      last_seen_at: seenAt,
    });
    postMetrics.push({
      ...base,
      post_id: postId,
      influencer_id: influencerId,
      network,
      engagement: 100 + i,
      reach: 1000 + i,
      emv: 1.5 * i,
    });
    postStats.push({ ...base, post_id: postId, stat: 'likes', value: 90 + i });
    postStats.push({ ...base, post_id: postId, stat: 'comments', value: 10 });
  }
  const all = segment === 'all';
  return {
    workspaces: [
      {
        workspace_id: 'w1',
        name: 'Workspace',
        description: null,
        created_at: '2026-01-01T00:00:00Z',
        raw: '{}',
        first_seen_at: seenAt,
        last_seen_at: seenAt,
      },
    ],
    campaigns: [
      {
        campaign_id: campaignId,
        name: `Campaign ${campaignId}`,
        workspace_id: 'w1',
        status: 'active',
        start_date: '2026-10-01',
        end_date: null,
        raw: '{}',
        first_seen_at: seenAt,
        last_seen_at: seenAt,
      },
    ],
    influencers: [0, 1].map((n) => ({
      influencer_id: `i${n}`,
      name: `Influencer ${n}`,
      raw: '{}',
      first_seen_at: seenAt,
      last_seen_at: seenAt,
    })),
    ...(all ? { posts } : {}),
    campaign_metrics: [
      {
        ...base,
        num_posts: postCount,
        num_influencers: 2,
        total_engagement: 500,
        engagement_rate: 0.05,
        total_reach: 3000,
        total_emv: 12.5,
      },
    ],
    campaign_network_metrics: networks.map((network) => ({
      ...base,
      network,
      num_posts: postCount / 2,
      num_influencers: 1,
      engagement: 250,
      engagement_rate: 0.05,
      reach: 2000,
      emv: 6.25,
      // The campaign's totals, as normalization adds them: sums over its networks, its reach.
      campaign_posts: (postCount / 2) * networks.length,
      campaign_engagement: 250 * networks.length,
      campaign_emv: 6.25 * networks.length,
      campaign_total_reach: 3000,
    })),
    campaign_network_stats: networks.flatMap((network) => [
      { ...base, network, stat: 'likes', value: 200 },
      { ...base, network, stat: 'comments', value: 50 },
      { ...base, network, stat: 'reach', value: 1800 },
    ]),
    post_metrics: postMetrics,
    post_stats: postStats,
    influencer_campaign_metrics: [0, 1].map((n) => ({
      ...base,
      influencer_id: `i${n}`,
      num_posts: postCount / 2,
      engagement: 250 - n,
      engagement_rate: 0.05,
      reach: 1500,
      emv: 6 + n,
      budget: 100,
    })),
    influencer_sales: [{ ...base, influencer_id: 'i0', currency: 'EUR', amount: 320.5 }],
    influencer_stats: [{ ...base, influencer_id: 'i0', stat: 'likes', value: 180 }],
    check_results: ['campaign_posts_counted', 'post_influencer_listed'].map((check_name, n) => ({
      snapshot_date: snapshotDate,
      segment,
      run_id: 'r-sample',
      check_name,
      status: n ? 'passed' : 'failed',
      checked: 2,
      failing: 1 - n,
    })),
    check_failures: [
      {
        ...base,
        check_name: 'campaign_posts_counted',
        entity_id: null,
        expected: postCount,
        actual: postCount + 3,
      },
    ],
    drift_observations: [
      {
        snapshot_date: snapshotDate,
        segment,
        level: 'post',
        kind: 'stat',
        name: 'clicks',
        occurrences: postCount,
      },
    ],
    ...(all
      ? {
          influencer_profiles: [0, 1].map((n) => ({
            snapshot_date: snapshotDate,
            influencer_id: `i${n}`,
            influence: 50 + n,
            brand_score: 7,
            true_reach: 50_000,
            followers: 80_000,
          })),
          influencer_network_profiles: [
            {
              snapshot_date: snapshotDate,
              influencer_id: 'i0',
              network: 'instagram',
              profile_id: '123',
              username: 'zero',
              followers: 40_000,
              engagement_per_post: 120.5,
              true_reach: 30_000,
            },
          ],
          influencer_tag_assignments: [
            { snapshot_date: snapshotDate, campaign_id: campaignId, influencer_id: 'i0', tag_id: '12' },
          ],
        }
      : {}),
  };
}

export function sampleRun(runId: string, snapshotDate: string, status = 'succeeded'): SyncRunRecord {
  return {
    run_id: runId,
    started_at: `${snapshotDate}T21:30:00Z`,
    finished_at: `${snapshotDate}T21:35:00Z`,
    status,
    snapshot_date: snapshotDate,
    requests: 12,
    retries: 1,
    throttled: 0,
    rows_written: 0,
    error: status === 'succeeded' ? null : 'boom',
  };
}
