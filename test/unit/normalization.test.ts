import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CAMPAIGN_RESOURCES, GLOBAL_RESOURCES, segmentFilter } from '../../pipelines/campaign-pipeline.js';
import type { RawRecord } from '../../src/api/types.js';
import {
  normalizeCampaignDetail,
  normalizeInfluencers,
  normalizePosts,
  normalizeTags,
  normalizeWorkspaces,
} from '../../src/normalize/index.js';
import { RefusedValues } from '../../src/normalize/refused-values.js';
import type { TableRows } from '../../src/normalize/rows.js';

const fixture = (name: string) =>
  JSON.parse(readFileSync(join(__dirname, '..', 'fixtures', 'api', name), 'utf8'));
const ctx = {
  snapshotDate: '2026-03-05',
  segment: 'all',
  seenAt: '2026-03-05T21:40:00.000Z',
  campaignId: '5001',
};
const key = { snapshot_date: '2026-03-05', segment: 'all', campaign_id: '5001' };

describe('normalizeCampaignDetail', () => {
  const rows = normalizeCampaignDetail(
    fixture('campaign-detail.json'),
    { id: '5001', end_date: '2026-04-30' },
    ctx,
  );

  it('maps the metrics object to one campaign_metrics row', () => {
    expect(rows.campaign_metrics).toEqual([
      {
        ...key,
        num_posts: 3,
        num_influencers: 2,
        total_engagement: 1200,
        engagement_rate: 0.042,
        total_reach: 9000,
        total_emv: 310.5,
      },
    ]);
  });

  it('maps each sources entry and its stats, each with its campaign totals', () => {
    // The sums over the networks (2 + 1 posts, ...) and the campaign-level reach, as fetched.
    const campaignTotals = {
      campaign_posts: 3,
      campaign_engagement: 1200,
      campaign_emv: 310.5,
      campaign_total_reach: 9000,
    };
    expect(rows.campaign_network_metrics).toEqual([
      {
        ...key,
        network: 'instagram',
        num_posts: 2,
        num_influencers: 2,
        engagement: 1000,
        engagement_rate: 0.05,
        reach: 8000,
        emv: 280.5,
        ...campaignTotals,
      },
      {
        ...key,
        network: 'tiktok',
        num_posts: 1,
        num_influencers: 1,
        engagement: 200,
        engagement_rate: 0.02,
        reach: 3000,
        emv: 30,
        ...campaignTotals,
      },
    ]);
    expect(rows.campaign_network_stats).toEqual([
      { ...key, network: 'instagram', stat: 'likes', value: 900 },
      { ...key, network: 'instagram', stat: 'comments', value: 100 },
      { ...key, network: 'instagram', stat: 'reach', value: 5000 },
      { ...key, network: 'tiktok', stat: 'views', value: 4000 },
      { ...key, network: 'tiktok', stat: 'shares', value: 20 },
    ]);
  });

  it('builds the campaign entity from detail and list record, raw without metrics and sources', () => {
    const [campaign] = rows.campaigns!;
    expect(campaign).toMatchObject({
      campaign_id: '5001',
      name: 'Spring launch',
      status: 'active',
      start_date: '2026-03-01',
      end_date: '2026-04-30',
      first_seen_at: ctx.seenAt,
    });
    const raw = JSON.parse(String(campaign!.raw));
    expect(raw.brief_url).toBe('https://brief.example/1');
    expect(raw.metrics).toBeUndefined();
    expect(raw.sources).toBeUndefined();
  });

  it('emits no entities for a filtered segment', () => {
    const filtered = normalizeCampaignDetail(fixture('campaign-detail.json'), undefined, {
      ...ctx,
      segment: 'video',
    });
    expect(filtered.campaigns).toBeUndefined();
    expect(filtered.campaign_metrics![0]!.segment).toBe('video');
  });
  it('sums campaign totals as SQL does: NULLs skipped, NULL when every network is NULL', () => {
    const rows = normalizeCampaignDetail(
      {
        metrics: { total_reach: null },
        sources: {
          instagram: { num_posts: 2, engagement: null, emv: null },
          tiktok: { num_posts: null, engagement: null, emv: null },
        },
      },
      undefined,
      ctx,
    );
    for (const row of rows.campaign_network_metrics!)
      expect(row).toMatchObject({
        campaign_posts: 2,
        campaign_engagement: null,
        campaign_emv: null,
        campaign_total_reach: null,
      });
  });
});

describe('normalizePosts', () => {
  const rows = normalizePosts(fixture('posts-page.json').posts, ctx);
  it('maps post metrics with string ids and UTC timestamps', () => {
    expect(rows.post_metrics).toEqual([
      {
        ...key,
        post_id: 'p1',
        influencer_id: '77',
        network: 'instagram',
        engagement: 600,
        reach: 5000,
        emv: 150.25,
      },
      {
        ...key,
        post_id: 'p2',
        influencer_id: '78',
        network: 'tiktok',
        engagement: 200,
        reach: 3000,
        emv: 30,
      },
    ]);
    expect(rows.posts!.map((p) => p.published_at)).toEqual([
      '2026-03-02T10:00:00.000Z',
      '2026-03-03T09:30:00.000Z',
    ]);
    expect(rows.post_stats).toHaveLength(4);
  });
});

describe('normalizeInfluencers', () => {
  const rows = normalizeInfluencers(fixture('influencers-page.json').influencers, ctx);
  it('maps campaign metrics, budget, sales per currency and stats', () => {
    expect(rows.influencer_campaign_metrics).toEqual([
      {
        ...key,
        influencer_id: '77',
        num_posts: 1,
        engagement: 600,
        engagement_rate: 0.05,
        reach: 5000,
        emv: 150.25,
        budget: 1500,
      },
      {
        ...key,
        influencer_id: '78',
        num_posts: 1,
        engagement: 200,
        engagement_rate: 0.02,
        reach: 3000,
        emv: 30,
        budget: null,
      },
    ]);
    expect(rows.influencer_sales).toEqual([
      { ...key, influencer_id: '77', currency: 'USD', amount: 1200.5 },
      { ...key, influencer_id: '77', currency: 'EUR', amount: 300 },
    ]);
    expect(rows.influencer_stats).toHaveLength(2);
  });

  it('maps profiles, network profiles and tags from the unfiltered view', () => {
    expect(rows.influencer_profiles).toEqual([
      {
        snapshot_date: '2026-03-05',
        influencer_id: '77',
        influence: 71.5,
        brand_score: 0.8,
        true_reach: 40000,
        followers: 120000,
      },
      {
        snapshot_date: '2026-03-05',
        influencer_id: '78',
        influence: 12,
        brand_score: 0.4,
        true_reach: 9000,
        followers: 20000,
      },
    ]);
    expect(rows.influencer_network_profiles).toEqual([
      {
        snapshot_date: '2026-03-05',
        influencer_id: '77',
        network: 'instagram',
        profile_id: 'ig77',
        username: 'ava.m',
        followers: 100000,
        engagement_per_post: 850.5,
        true_reach: 30000,
      },
    ]);
    expect(rows.influencer_tag_assignments!.map((t) => t.tag_id)).toEqual(['100', '101']);
    // The entity's raw is campaign-independent: the same whatever campaign it was seen on.
    const raw = JSON.parse(String(rows.influencers![0]!.raw));
    expect(raw.campaign_metrics).toBeUndefined();
    expect(raw.influencer_metrics.influence).toBe(71.5);
  });
});

describe('schema drift', () => {
  const drift = fixture('drift.json');
  it('coerces numeric strings, keeps nulls and unknown networks, stats and fields', () => {
    const refused = new RefusedValues();
    const rows = normalizeCampaignDetail(drift, undefined, { ...ctx, refused });
    expect(rows.campaign_metrics![0]).toMatchObject({
      num_posts: 4,
      num_influencers: null,
      // A count with a fraction is refused, never rounded; "n/a" is not a number.
      total_engagement: null,
      engagement_rate: null,
      total_emv: 55.5,
    });
    expect(rows.campaign_network_metrics![0]).toMatchObject({ network: 'youtube', engagement: 1000 });
    expect(rows.campaign_network_stats!.map((s) => [s.stat, s.value])).toEqual([
      ['views', 10],
      ['clicks', 7],
      ['mood', null],
    ]);
    expect(JSON.parse(String(rows.campaigns![0]!.raw)).x_partner_note).toBe('kept');
    // Each refusal is counted under its field (null is no refusal: num_influencers).
    expect(refused.lines().sort()).toEqual([
      'campaign_metrics.engagement_rate: 1 value stored as NULL: not a decimal number (first: "n/a")',
      'campaign_metrics.total_engagement: 1 value stored as NULL: not a whole number (first: "1000.6")',
      'campaign_network_stats.value (stat mood): 1 value stored as NULL: not a decimal number (first: "happy")',
    ]);
  });

  it('skips posts without an id and never throws on bad values', () => {
    const rows = normalizePosts(drift.posts, ctx);
    expect(rows.post_metrics).toEqual([
      {
        ...key,
        post_id: 'p9',
        influencer_id: null,
        network: 'youtube',
        engagement: 12,
        reach: null,
        emv: 0.5,
      },
    ]);
    expect(rows.posts![0]!.published_at).toBeNull();
    expect(JSON.parse(String(rows.posts![0]!.raw)).x_partner_note).toBe('kept');
  });

  it('reads workspaces and tags with their raw record', () => {
    const seen = { snapshotDate: ctx.snapshotDate, segment: 'all', seenAt: ctx.seenAt };
    expect(
      normalizeWorkspaces(
        [{ id: 'w1', name: 'W', created_at: '2024-01-01T00:00:00Z', extra: 1 }, { name: 'no id' }],
        seen,
      ).workspaces,
    ).toEqual([
      {
        workspace_id: 'w1',
        name: 'W',
        description: null,
        created_at: '2024-01-01T00:00:00.000Z',
        raw: '{"id":"w1","name":"W","created_at":"2024-01-01T00:00:00Z","extra":1}',
        first_seen_at: ctx.seenAt,
        last_seen_at: ctx.seenAt,
      },
    ]);
    expect(
      normalizeTags([{ id: 12, name: 'fitness', workspace_id: 'w1' }], seen).influencer_tags![0],
    ).toMatchObject({ tag_id: '12', workspace_id: 'w1' });
  });
});

describe('normalized rows match the warehouse tables', () => {
  const migrations = join(__dirname, '..', '..', 'sql', 'warehouse', 'migrations');
  const ddl = readdirSync(migrations)
    .sort()
    .map((file) => readFileSync(join(migrations, file), 'utf8'))
    .join('\n');
  const tables = new Map<string, string[]>();
  for (const match of ddl.matchAll(/create table (\w+) \(([\s\S]*?)\n\);/g)) {
    tables.set(
      match[1]!,
      match[2]!
        .split('\n')
        .map((line) => line.trim().split(/\s+/)[0]!)
        .filter((name) => /^[a-z_]+$/.test(name)),
    );
  }
  for (const [, table, column] of ddl.matchAll(/alter table (\w+) add column (\w+)/g))
    tables.get(table!)?.push(column!);
  const produced: TableRows[] = [
    normalizeCampaignDetail(fixture('campaign-detail.json'), undefined, ctx),
    normalizePosts(fixture('posts-page.json').posts, ctx),
    normalizeInfluencers(fixture('influencers-page.json').influencers, ctx),
    normalizeWorkspaces([{ id: 'w' }], ctx),
    normalizeTags([{ id: 't' }], ctx),
  ];
  it.each(produced.flatMap((rows) => Object.entries(rows)))(
    '%s rows have exactly the table columns',
    (table, rows) => {
      expect(tables.has(table)).toBe(true);
      for (const row of rows ?? []) expect(Object.keys(row).sort()).toEqual([...tables.get(table)!].sort());
    },
  );
});

describe('pipeline definition', () => {
  it('describes the global and per-campaign resources and segment filters', () => {
    expect(GLOBAL_RESOURCES.map((r) => r.name)).toEqual(['workspaces', 'tags']);
    expect(CAMPAIGN_RESOURCES.map((r) => r.name)).toEqual(['posts', 'influencers']);
    expect(segmentFilter({ name: 'all' })).toEqual({});
    expect(segmentFilter({ name: 'v', sources: ['tiktok'], tags: [] })).toEqual({ sources: ['tiktok'] });
    const records: RawRecord[] = [{ id: 'x' }];
    expect(CAMPAIGN_RESOURCES[0]!.normalize(records, ctx).post_metrics).toHaveLength(1);
  });
});
