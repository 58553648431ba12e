import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { runSync } from '../../src/extract/run-sync.js';
import type { RunningSimulator } from '../../src/simulator/start-simulator.js';
import {
  checksums,
  rows,
  SNAPSHOT,
  startSim,
  sync,
  syncConfig,
  tempDataDir,
} from '../helpers/sync-harness.js';

interface ExpectedInfluencer {
  id: string;
  budget: number | null;
  tags: { id: string }[];
  campaign_metrics: Record<string, number> & { sales?: Record<string, number> };
  influencer_metrics: Record<string, number> & { sources: Record<string, unknown> };
}

let sim: RunningSimulator | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

describe('sync against the simulator', () => {
  it('stores what the simulator serves, for a sample of every table', async () => {
    sim = await startSim();
    const dataDir = tempDataDir();
    const summary = await sync(sim, syncConfig(sim, dataDir));
    expect(summary.snapshotDate).toBe(SNAPSHOT);
    expect(summary.rowsWritten).toBeGreaterThan(0);

    const { catalog } = sim.model;
    const campaign = catalog.campaigns.find((c) => c.postCount > 0)!;
    const expected = sim.model.campaignDetail(campaign.id, {}, SNAPSHOT) as {
      metrics: Record<string, number>;
      sources: Record<string, Record<string, number> & { stats: Record<string, number> }>;
    };

    const [metrics] = await rows(
      dataDir,
      "select * from campaign_metrics where campaign_id = ? and segment = 'all'",
      [campaign.id],
    );
    expect(metrics).toMatchObject({
      snapshot_date: SNAPSHOT,
      num_posts: expected.metrics.num_posts,
      num_influencers: expected.metrics.num_influencers,
      total_engagement: expected.metrics.total_engagement,
      engagement_rate: expected.metrics.engagement_rate,
      total_reach: expected.metrics.total_reach,
      total_emv: expected.metrics.total_emv,
    });

    const networks = await rows(
      dataDir,
      'select * from campaign_network_metrics where campaign_id = ? order by network',
      [campaign.id],
    );
    expect(networks.map((n) => n.network)).toEqual(Object.keys(expected.sources).sort());
    for (const n of networks) {
      const e = expected.sources[String(n.network)]!;
      expect(n).toMatchObject({
        num_posts: e.num_posts,
        engagement: e.engagement,
        reach: e.reach,
        emv: e.emv,
      });
      const stats = await rows(
        dataDir,
        'select stat, value from campaign_network_stats where campaign_id = ? and network = ?',
        [campaign.id, String(n.network)],
      );
      expect(Object.fromEntries(stats.map((s) => [s.stat, s.value]))).toEqual(e.stats);
    }

    const posts = sim.model.posts(campaign.id, {}, SNAPSHOT, 0, 3);
    for (const post of posts) {
      const [stored] = await rows(dataDir, 'select * from post_metrics where post_id = ?', [String(post.id)]);
      expect(stored).toMatchObject({
        influencer_id: post.influencer_id,
        network: post.network,
        engagement: post.engagement,
        reach: post.reach,
        emv: post.emv,
      });
      const [entity] = await rows(dataDir, 'select url, published_at from posts where post_id = ?', [
        String(post.id),
      ]);
      expect(entity!.url).toBe(post.url);
      const stats = await rows(dataDir, 'select stat, value from post_stats where post_id = ?', [
        String(post.id),
      ]);
      expect(Object.fromEntries(stats.map((s) => [s.stat, s.value]))).toEqual(post.stats);
    }

    const influencers = sim.model.influencers(campaign.id, {}, SNAPSHOT) as unknown as ExpectedInfluencer[];
    for (const inf of influencers.slice(0, 3)) {
      const [m] = await rows(
        dataDir,
        'select * from influencer_campaign_metrics where campaign_id = ? and influencer_id = ?',
        [campaign.id, inf.id],
      );
      expect(m).toMatchObject({
        num_posts: inf.campaign_metrics.num_posts,
        engagement: inf.campaign_metrics.engagement,
        reach: inf.campaign_metrics.reach,
        emv: inf.campaign_metrics.emv,
        budget: inf.budget,
      });
      const sales = await rows(
        dataDir,
        'select currency, amount from influencer_sales where campaign_id = ? and influencer_id = ?',
        [campaign.id, inf.id],
      );
      expect(Object.fromEntries(sales.map((s) => [s.currency, s.amount]))).toEqual(
        inf.campaign_metrics.sales ?? {},
      );
      const [profile] = await rows(dataDir, 'select * from influencer_profiles where influencer_id = ?', [
        inf.id,
      ]);
      expect(profile).toMatchObject({
        influence: inf.influencer_metrics.influence,
        brand_score: inf.influencer_metrics.brand_score,
        true_reach: inf.influencer_metrics.true_reach,
        followers: inf.influencer_metrics.followers,
      });
      const profiles = await rows(
        dataDir,
        'select network, profile_id, followers from influencer_network_profiles where influencer_id = ?',
        [inf.id],
      );
      expect(profiles.map((p) => p.network).sort()).toEqual(
        Object.keys(inf.influencer_metrics.sources).sort(),
      );
      const tags = await rows(
        dataDir,
        'select tag_id from influencer_tag_assignments where campaign_id = ? and influencer_id = ? order by tag_id',
        [campaign.id, inf.id],
      );
      expect(tags.map((t) => t.tag_id)).toEqual(inf.tags.map((t) => t.id).sort());
    }

    const [counts] = await rows(
      dataDir,
      'select (select count(*) from workspaces) as w, (select count(*) from influencer_tags) as t, (select count(*) from campaigns) as c, (select count(*) from sync_runs where status = ?) as runs',
      ['succeeded'],
    );
    expect(counts).toEqual({
      w: catalog.workspaces.length,
      t: catalog.tags.length,
      c: catalog.campaigns.length,
      runs: 1,
    });
  });

  it('stores segments under their names with the filtered figures as fetched', async () => {
    sim = await startSim();
    const dataDir = tempDataDir();
    const tag = sim.model.catalog.tags[0]!.id;
    await sync(
      sim,
      syncConfig(sim, dataDir, {
        segments: [
          { name: 'video', sources: ['tiktok', 'instagram'] },
          { name: 'tagged', tags: [tag] },
        ],
      }),
    );
    const campaign = sim.model.catalog.campaigns.find((c) => c.postCount > 0)!;
    for (const [segment, filter] of [
      ['video', { sources: ['tiktok', 'instagram'] }],
      ['tagged', { tags: [tag] }],
    ] as const) {
      const expected = sim.model.campaignDetail(campaign.id, filter, SNAPSHOT) as {
        metrics: Record<string, number>;
      };
      const [m] = await rows(
        dataDir,
        'select num_posts, total_engagement, total_reach from campaign_metrics where campaign_id = ? and segment = ?',
        [campaign.id, segment],
      );
      expect(m).toEqual({
        num_posts: expected.metrics.num_posts,
        total_engagement: expected.metrics.total_engagement,
        total_reach: expected.metrics.total_reach,
      });
      const [posts] = await rows(
        dataDir,
        'select count(*) as n from post_metrics where campaign_id = ? and segment = ?',
        [campaign.id, segment],
      );
      expect(posts!.n).toBe(expected.metrics.num_posts);
    }
    // Entities and campaign-independent facts come from the unfiltered view only.
    const segments = await rows(dataDir, 'select distinct segment from post_metrics order by segment');
    expect(segments.map((s) => s.segment)).toEqual(['all', 'tagged', 'video']);
  });

  it('warns about segment filters naming tags the API does not list, or unknown networks, and still syncs', async () => {
    sim = await startSim();
    const dataDir = tempDataDir();
    const tag = sim.model.catalog.tags[0]!.id;
    const segments = [
      { name: 'good', tags: [tag], sources: ['tiktok'] },
      { name: 'beauty', tags: ['12', tag, '40'] },
      { name: 'typo', sources: ['tiktokk', 'instagram'] },
    ];
    const warned: string[] = [];
    const logger = pino({ level: 'warn' }, { write: (line: string) => warned.push(JSON.parse(line).msg) });
    const summary = await runSync(syncConfig(sim, dataDir, { segments }), {
      logger,
      now: () => sim!.clock.now(),
    });
    const expected = [
      "segment beauty: tag id(s) 12, 40 not in the API's tags list (the filter matches nothing for them)",
      'segment typo: network(s) tiktokk not known (known: facebook, instagram, instagram_stories, tiktok); fetched anyway',
    ];
    expect(summary.warnings).toEqual(expected);
    expect(warned).toEqual(expected);
    const synced = await rows(dataDir, 'select distinct segment from campaign_metrics order by segment');
    expect(synced.map((r) => r.segment)).toEqual(['all', 'beauty', 'good', 'typo']);
  });

  it('re-running the same snapshot date replaces its rows: no duplicates', async () => {
    sim = await startSim();
    const dataDir = tempDataDir();
    const config = syncConfig(sim, dataDir);
    await sync(sim, config);
    const first = await checksums(dataDir);
    await sync(sim, config);
    expect(await checksums(dataDir)).toEqual(first);
    const [dups] = await rows(
      dataDir,
      'select count(*) as n from (select snapshot_date, segment, post_id from post_metrics group by all having count(*) > 1)',
    );
    expect(dups!.n).toBe(0);
    const [runs] = await rows(dataDir, 'select count(*) as n from sync_runs');
    expect(runs!.n).toBe(2);
  });

  it('keeps a daily history: a later snapshot adds rows with moved figures', async () => {
    sim = await startSim();
    const dataDir = tempDataDir();
    await sync(sim, syncConfig(sim, dataDir));
    sim.clock.advance(86_400_000);
    await sync(sim, syncConfig(sim, dataDir));
    const days = await rows(
      dataDir,
      "select snapshot_date, sum(total_engagement) as e from campaign_metrics where segment = 'all' group by 1 order by 1",
    );
    expect(days.map((d) => d.snapshot_date)).toEqual([SNAPSHOT, '2026-11-21']);
    expect(days[1]!.e).not.toBe(days[0]!.e);
    const [latest] = await rows(dataDir, 'select distinct snapshot_date from latest_campaign_metrics');
    expect(latest!.snapshot_date).toBe('2026-11-21');
  });

  it('keeps schema drift: unknown fields, networks and stats, numeric strings, null metrics', async () => {
    sim = await startSim({ drift: true });
    const dataDir = tempDataDir();
    await sync(sim, syncConfig(sim, dataDir));
    const [network] = await rows(
      dataDir,
      "select count(*) as n from campaign_network_metrics where network = 'youtube'",
    );
    expect(network!.n).toBe(sim.model.catalog.campaigns.length);
    const [stat] = await rows(
      dataDir,
      "select count(*) as n from post_stats where stat = 'clicks' and value = 3",
    );
    expect(Number(stat!.n)).toBeGreaterThan(0);
    const [raw] = await rows(
      dataDir,
      "select count(*) as n from posts where raw->>'x_partner_note' = 'drift'",
    );
    expect(Number(raw!.n)).toBeGreaterThan(0);
    const [campaignRaw] = await rows(
      dataDir,
      "select count(*) as n from campaigns where raw->>'x_partner_note' = 'drift'",
    );
    expect(campaignRaw!.n).toBe(sim.model.catalog.campaigns.length);
    // Numeric strings became numbers; nulls stayed null.
    const [m] = await rows(
      dataDir,
      "select count(total_emv) as emv, count(engagement_rate) as rate from campaign_metrics where segment = 'all'",
    );
    expect(m).toEqual({ emv: sim.model.catalog.campaigns.length, rate: 0 });
    const [e] = await rows(dataDir, 'select count(*) as n from post_metrics where engagement is null');
    expect(e!.n).toBe(0);
  });
});
