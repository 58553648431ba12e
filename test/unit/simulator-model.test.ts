import { describe, expect, it } from 'vitest';
import { NETWORKS } from '../../src/simulator/model/networks.js';
import { postFigures } from '../../src/simulator/model/post-generator.js';
import { SimModel } from '../../src/simulator/model/sim-model.js';

const SIZE = {
  workspaces: 3,
  tagsPerWorkspace: 4,
  campaigns: 14,
  postsPerCampaign: 300,
  influencersPerCampaign: 20,
};
const DAY = '2026-03-04';

describe('SimModel', () => {
  it('is deterministic per seed', () => {
    const a = new SimModel(5, SIZE);
    const b = new SimModel(5, SIZE);
    const c = new SimModel(6, SIZE);
    expect(a.campaignDetail('5001', {}, DAY)).toEqual(b.campaignDetail('5001', {}, DAY));
    expect(a.posts('5001', {}, DAY, 0, 50)).toEqual(b.posts('5001', {}, DAY, 0, 50));
    expect(a.posts('5001', {}, DAY, 0, 50)).not.toEqual(c.posts('5001', {}, DAY, 0, 50));
  });

  it('is realistic: campaigns without posts, skewed engagement, influencers without sales, several currencies', () => {
    const m = new SimModel(5, SIZE);
    expect(m.catalog.campaigns.some((c) => c.postCount === 0)).toBe(true);
    const engagement = m
      .posts('5000', {}, DAY)
      .map((p) => p.engagement as number)
      .sort((x, y) => x - y);
    const median = engagement[Math.floor(engagement.length / 2)]!;
    expect(engagement.at(-1)!).toBeGreaterThan(median * 10);
    const influencers = m.catalog.campaigns.flatMap((c) => m.influencers(c.id, {}, DAY));
    const currencies = new Set(
      influencers.flatMap((i) => Object.keys((i.campaign_metrics as { sales?: object }).sales ?? {})),
    );
    expect(currencies.size).toBeGreaterThanOrEqual(3);
    expect(influencers.some((i) => (i.campaign_metrics as { sales?: object }).sales === undefined)).toBe(
      true,
    );
    for (const i of influencers) expect((i.tags as unknown[]).length).toBeLessThanOrEqual(3);
    const networks = new Set(
      m.catalog.campaigns.flatMap((c) => Object.keys(m.campaignDetail(c.id, {}, DAY).sources as object)),
    );
    expect([...networks].sort()).toEqual([...NETWORKS].sort());
  });

  it('iterates every post in view in the order the pages serve them', () => {
    const m = new SimModel(5, SIZE);
    const filter = { sources: ['instagram', 'tiktok'] };
    const all = [...m.iteratePosts('5002', filter, DAY, 7)];
    expect(all).toEqual(m.posts('5002', filter, DAY));
    expect(all.length).toBe(m.postIndexes('5002', filter, DAY).length);
    expect((m.campaignDetail('5002', filter, DAY).metrics as { num_posts: number }).num_posts).toBe(
      all.length,
    );
  });

  it('keeps influencer true_reach independent of the campaign and growing daily', () => {
    const m = new SimModel(5, SIZE);
    const today = m.influencers('5000', {}, DAY)[0]!;
    const tomorrow = m.influencers('5000', {}, '2026-03-05')[0]!;
    const trueReach = (i: Record<string, unknown>) =>
      (i.influencer_metrics as { true_reach: number }).true_reach;
    expect(trueReach(tomorrow)).toBeGreaterThanOrEqual(trueReach(today));
    const campaignReach = (today.campaign_metrics as { reach: number }).reach;
    expect(trueReach(today)).not.toBe(campaignReach);
  });
});

describe('daily growth', () => {
  it('never lowers a post figure from one day to the next, and raises the campaign totals', () => {
    const m = new SimModel(5, SIZE);
    const dayAt = (k: number) => new Date(Date.UTC(2026, 0, 1) + k * 86_400_000).toISOString().slice(0, 10);
    let previous = m.posts('5000', {}, dayAt(0));
    for (let k = 1; k <= 40; k++) {
      const current = m.posts('5000', {}, dayAt(k));
      current.forEach((p, n) => {
        expect(p.engagement as number).toBeGreaterThanOrEqual(previous[n]!.engagement as number);
      });
      previous = current;
    }
    const total = (day: string) =>
      (m.campaignDetail('5000', {}, day).metrics as { total_engagement: number }).total_engagement;
    expect(total(dayAt(40))).toBeGreaterThan(total(dayAt(0)));
  });

  it('reports engagement_rate as the mean of the per-post rates', () => {
    const m = new SimModel(5, SIZE);
    const campaign = m.catalog.campaign('5000')!;
    const rates = Array.from(
      { length: campaign.postCount },
      (_, i) => postFigures(m.catalog, campaign, i, DAY).engagementRate,
    );
    const mean = rates.reduce((a, b) => a + b, 0) / rates.length;
    expect(
      (m.campaignDetail('5000', {}, DAY).metrics as { engagement_rate: number }).engagement_rate,
    ).toBeCloseTo(mean, 5);
  });
});
