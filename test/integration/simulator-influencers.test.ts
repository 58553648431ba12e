import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSimulator, startSimulator } from '../../src/simulator/start-simulator.js';

// biome-ignore lint/suspicious/noExplicitAny: test-only access into JSON bodies
type Json = Record<string, any>;

/** 12:00 UTC: outside the refresh window, so the figures are those of the previous day. */
const START = new Date('2026-06-10T12:00:00Z');
const FIGURE_DAY = '2026-06-09';

let sim: RunningSimulator;

async function get(
  path: string,
  key: string | null = 'sim-key',
): Promise<{ status: number; body: Json; headers: Record<string, unknown> }> {
  const res = await request(`${sim.url}${path}`, { headers: key ? { apikey: key } : {} });
  const text = await res.body.text();
  return { status: res.statusCode, body: text ? (JSON.parse(text) as Json) : {}, headers: res.headers };
}

async function allPages(path: string, key: string, pageSize = 7): Promise<Json[]> {
  const out: Json[] = [];
  const sep = path.includes('?') ? '&' : '?';
  for (let page = 1; ; page++) {
    const { status, body } = await get(`${path}${sep}page=${page}&page_size=${pageSize}`);
    expect(status).toBe(200);
    out.push(...(body[key] as Json[]));
    if (out.length >= body.total || (body[key] as Json[]).length === 0) {
      expect(out.length).toBe(body.total);
      return out;
    }
  }
}

const sum = (xs: (number | undefined)[]) => xs.reduce<number>((a, b) => a + (b ?? 0), 0);

beforeAll(async () => {
  sim = await startSimulator({ seed: 7, startTime: START, hooks: { deliveriesPerSecond: 0 } });
});
afterAll(async () => {
  await sim.close();
});

describe('auth and routing', () => {
  it('answers 401 without a key or with an unknown key, with an ErrorsCollection and X-Request-Id', async () => {
    for (const key of [null, 'nope']) {
      const r = await get('/v3/influencers/campaigns', key);
      expect(r.status).toBe(401);
      expect(Array.isArray(r.body.errors)).toBe(true);
      expect(typeof r.headers['x-request-id']).toBe('string');
    }
  });
  it('answers 403 for a key not entitled to the area', async () => {
    expect((await get('/v3/influencers/campaigns', 'sim-streaming-key')).status).toBe(403);
    expect((await get('/v3/influencers/campaigns', 'sim-influencers-key')).status).toBe(200);
    expect((await get('/v3/hooks', 'sim-influencers-key')).status).toBe(403);
  });
  it('serves the streaming area of the hook service behind the same auth', async () => {
    expect((await get('/v3/hooks')).body.hooks).toEqual([]);
    expect((await get('/v3/schemas/social_streaming.json', 'sim-streaming-key')).status).toBe(200);
    expect((await get('/v3/searches')).status).toBe(200);
    expect((await get('/v3/hooks', null)).status).toBe(401);
    expect(sim.stats().hooks).toHaveProperty('liveHooks', 0);
  });
  it('answers 404 for unknown paths and campaigns, 405 for a wrong method', async () => {
    expect((await get('/v3/nothing')).status).toBe(404);
    const missing = await get('/v3/influencers/campaigns/nope');
    expect(missing.status).toBe(404);
    expect(missing.body.errors[0].type).toBe('not_found');
    const res = await request(`${sim.url}/v3/influencers/campaigns`, {
      method: 'DELETE',
      headers: { apikey: 'sim-key' },
    });
    await res.body.text();
    expect(res.statusCode).toBe(405);
  });
  it('answers 400 for a paging value that is not a positive integer', async () => {
    expect((await get('/v3/influencers/campaigns?page=0')).status).toBe(400);
    expect((await get('/v3/influencers/campaigns?page_size=abc')).status).toBe(400);
  });
});

describe('list endpoints', () => {
  it('serves workspaces with 24-hex ids and a count', async () => {
    const r = await get('/v3/accounts/me/partner/workspaces');
    expect(r.status).toBe(200);
    expect(r.body.count).toBe(2);
    for (const w of r.body.workspaces) {
      expect(w.id).toMatch(/^[0-9a-f]{24}$/);
      expect(Object.keys(w).sort()).toEqual(['created_at', 'description', 'id', 'name']);
    }
  });
  it('pages cover total exactly and page_size clamps to 100', async () => {
    const tags = await allPages('/v3/influencers/tags', 'tags', 3);
    expect(tags.length).toBe(8);
    expect(new Set(tags.map((t) => t.id)).size).toBe(8);
    const big = await get('/v3/influencers/tags?page_size=500');
    expect(big.body.page_size).toBe(100);
    const def = await get('/v3/influencers/campaigns');
    expect(def.body.page_size).toBe(10);
    expect(def.body.page).toBe(1);
    const campaigns = await allPages('/v3/influencers/campaigns', 'campaigns', 3);
    expect(campaigns.length).toBe(8);
    for (const c of campaigns) {
      expect(Object.keys(c).sort()).toEqual([
        'end_date',
        'id',
        'name',
        'start_date',
        'status',
        'workspace_id',
      ]);
      expect(typeof c.id).toBe('string');
    }
  });
  it('pages posts and influencers of a campaign without gaps or repeats', async () => {
    const posts = await allPages('/v3/influencers/campaigns/5000/posts', 'posts', 9);
    expect(new Set(posts.map((p) => p.id)).size).toBe(posts.length);
    const infl = await allPages('/v3/influencers/campaigns/5000/influencers', 'influencers', 5);
    expect(new Set(infl.map((i) => i.id)).size).toBe(infl.length);
  });
});

describe('consistency of the figures', () => {
  async function view(id: string, query = '') {
    const detail = (await get(`/v3/influencers/campaigns/${id}${query ? `?${query}` : ''}`)).body
      .campaign as Json;
    const posts = await allPages(
      `/v3/influencers/campaigns/${id}/posts${query ? `?${query}` : ''}`,
      'posts',
      100,
    );
    const infl = await allPages(
      `/v3/influencers/campaigns/${id}/influencers${query ? `?${query}` : ''}`,
      'influencers',
      100,
    );
    return { detail, posts, infl };
  }

  function checkConsistent(detail: Json, posts: Json[], infl: Json[]) {
    const m = detail.metrics;
    expect(m.num_posts).toBe(posts.length);
    expect(m.total_engagement).toBe(sum(posts.map((p) => p.engagement)));
    expect(m.total_emv).toBeCloseTo(sum(posts.map((p) => p.emv)), 1);
    expect(m.num_influencers).toBe(new Set(posts.map((p) => p.influencer_id)).size);
    if (posts.length) {
      // engagement_rate is the mean of per-post rates: bounded by the posts' values.
      expect(m.engagement_rate).toBeGreaterThan(0);
    }
    const networks = Object.keys(detail.sources);
    expect(networks.sort()).toEqual([...new Set(posts.map((p) => p.network))].sort());
    expect(sum(networks.map((n) => detail.sources[n].num_posts))).toBe(m.num_posts);
    let networkReach = 0;
    for (const n of networks) {
      const s = detail.sources[n];
      const onNet = posts.filter((p) => p.network === n);
      expect(s.engagement).toBe(sum(onNet.map((p) => p.engagement)));
      expect(s.emv).toBeCloseTo(sum(onNet.map((p) => p.emv)), 1);
      expect(s.num_influencers).toBe(new Set(onNet.map((p) => p.influencer_id)).size);
      for (const stat of Object.keys(s.stats))
        expect(s.stats[stat]).toBe(sum(onNet.map((p) => p.stats[stat])));
      // Reach rule 2: the network's reach is not its stats.reach; rule 1 needs the sum below.
      if (s.stats.reach !== undefined) expect(s.reach).not.toBe(s.stats.reach);
      networkReach += s.reach;
    }
    if (posts.length) {
      // Reach rule 1: deduplicated across networks, smaller than the sum of network reach.
      expect(m.total_reach).toBeLessThan(networkReach);
    }
    for (const i of infl) {
      const mine = posts.filter((p) => p.influencer_id === i.id);
      const cm = i.campaign_metrics;
      expect(cm.num_posts).toBe(mine.length);
      expect(cm.engagement).toBe(sum(mine.map((p) => p.engagement)));
      expect(cm.emv).toBeCloseTo(sum(mine.map((p) => p.emv)), 1);
      for (const stat of Object.keys(cm.stats))
        expect(cm.stats[stat]).toBe(sum(mine.map((p) => p.stats[stat])));
      if (mine.length) expect(cm.reach).toBeLessThanOrEqual(sum(mine.map((p) => p.reach)));
      // Reach rule 3: true_reach is the whole audience, independent of the campaign.
      expect(i.influencer_metrics.true_reach).toBeGreaterThan(0);
    }
    const inflIds = new Set(infl.map((i) => i.id));
    for (const p of posts) expect(inflIds.has(p.influencer_id)).toBe(true);
  }

  it('holds the rules unfiltered', async () => {
    const { detail, posts, infl } = await view('5000');
    expect(posts.length).toBeGreaterThan(0);
    checkConsistent(detail, posts, infl);
  });

  it('holds the rules for a tags filter (comma and repeated forms agree)', async () => {
    const comma = await view('5001', 'tags=100,101,102');
    const repeated = await view('5001', 'tags=100&tags=101&tags=102');
    expect(repeated.detail).toEqual(comma.detail);
    expect(repeated.posts).toEqual(comma.posts);
    checkConsistent(comma.detail, comma.posts, comma.infl);
    for (const i of comma.infl)
      expect(i.tags.some((t: Json) => ['100', '101', '102'].includes(t.id))).toBe(true);
    const all = await view('5001');
    expect(comma.posts.length).toBeLessThan(all.posts.length);
  });

  it('holds the rules for a sources filter', async () => {
    const { detail, posts, infl } = await view('5002', 'sources=instagram,tiktok');
    for (const p of posts) expect(['instagram', 'tiktok']).toContain(p.network);
    checkConsistent(detail, posts, infl);
  });

  it('serves a campaign with no posts with zero figures and no sources', async () => {
    const { detail, posts } = await view('5003');
    expect(posts).toEqual([]);
    expect(detail.metrics.num_posts).toBe(0);
    expect(detail.sources).toEqual({});
  });

  it('gives posts only the stats of their network and string ids', async () => {
    const allowed: Record<string, string[]> = {
      facebook: ['comments', 'likes'],
      instagram: ['comments', 'likes', 'impressions', 'reach', 'saved', 'views'],
      instagram_stories: ['impressions', 'reach', 'exits', 'replies', 'taps_back', 'taps_forward'],
      tiktok: ['comments', 'likes', 'views', 'shares'],
    };
    const posts = await allPages('/v3/influencers/campaigns/5004/posts', 'posts', 100);
    for (const p of posts) {
      expect(Object.keys(p.stats).sort()).toEqual([...allowed[p.network]!].sort());
      expect(typeof p.id).toBe('string');
      expect(typeof p.influencer_id).toBe('string');
    }
  });

  it('serves the same figures as model, for the day of the latest refresh', async () => {
    const r = await get('/v3/influencers/campaigns/5000');
    expect(r.body.campaign).toEqual(sim.model.campaignDetail('5000', {}, FIGURE_DAY));
  });
});

describe('introspection', () => {
  it('counts requests and moves the clock', async () => {
    const before = (await get('/__sim/stats', null)).body;
    expect(before.requests).toBeGreaterThan(0);
    expect(before.byStatus['200']).toBeGreaterThan(0);
    const res = await request(`${sim.url}/__sim/clock`, {
      method: 'POST',
      body: JSON.stringify({ advanceMs: 86_400_000 }),
    });
    const moved = (await res.body.json()) as Json;
    expect(Date.parse(moved.now) - START.getTime()).toBeGreaterThanOrEqual(86_400_000);
    sim.clock.set(START);
    const bad = await request(`${sim.url}/__sim/clock`, { method: 'POST', body: '{' });
    await bad.body.text();
    expect(bad.statusCode).toBe(400);
  });
});
