import { isDeepStrictEqual } from 'node:util';
import { Agent, request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type RunningSimulator,
  type SimulatorInput,
  type SimulatorOptions,
  startSimulator,
} from '../../src/simulator/start-simulator.js';

// biome-ignore lint/suspicious/noExplicitAny: test-only access into JSON bodies
type Json = Record<string, any>;

const START = new Date('2026-06-10T12:00:00Z');
const running: RunningSimulator[] = [];

async function sim(options: SimulatorInput = {}): Promise<RunningSimulator> {
  const s = await startSimulator({
    seed: 3,
    startTime: START,
    hooks: { deliveriesPerSecond: 0 },
    ...options,
  });
  running.push(s);
  return s;
}

async function get(s: RunningSimulator, path: string, dispatcher?: Agent) {
  const res = await request(`${s.url}${path}`, {
    headers: { apikey: 'sim-key' },
    ...(dispatcher ? { dispatcher } : {}),
  });
  return { status: res.statusCode, headers: res.headers, text: await res.body.text() };
}

afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.close()));
});

describe('rate limit', () => {
  const formats = {
    iso: /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/,
    'http-date': /^[A-Z][a-z]{2}, \d\d [A-Z][a-z]{2} \d{4} \d\d:\d\d:\d\d GMT$/,
    epoch: /^\d{10}$/,
    delta: /^\d+$/,
  } as const;
  for (const [format, pattern] of Object.entries(formats)) {
    it(`answers 429 over the limit with Retry-After in the ${format} format`, async () => {
      const s = await sim({
        rateLimit: { rps: 0.5, burst: 2 },
        retryAfterFormat: format as SimulatorOptions['retryAfterFormat'],
      });
      const answers = [];
      for (let i = 0; i < 3; i++) answers.push(await get(s, '/v3/influencers/tags'));
      expect(answers.map((a) => a.status)).toEqual([200, 200, 429]);
      const limited = answers[2]!;
      expect(JSON.parse(limited.text)).toEqual({ message: 'Service Overloaded', errors: {} });
      const retryAfter = String(limited.headers['retry-after']);
      expect(retryAfter).toMatch(pattern);
      if (format === 'epoch') expect(Number(retryAfter) * 1000).toBeGreaterThan(Date.now() - 1000);
      if (format === 'delta') expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
      for (const a of answers) {
        expect(a.headers['ratelimit-limit']).toBeDefined();
        expect(a.headers['ratelimit-remaining']).toBeDefined();
        expect(Number(a.headers['ratelimit-reset'])).toBeGreaterThan(Date.now() / 1000 - 1);
      }
      expect(limited.headers['ratelimit-remaining']).toBe('0');
      const unauthorized = await request(`${s.url}/v3/influencers/tags`);
      await unauthorized.body.text();
      expect(unauthorized.statusCode).toBe(401);
      expect(unauthorized.headers['ratelimit-limit']).toBe('0.5');
      const stats = s.stats() as Json;
      expect(stats.throttled).toBe(1);
    });
  }

  it('never limits or faults /__sim', async () => {
    const s = await sim({ rateLimit: { rps: 0.1, burst: 1 }, faults: { error500Rate: 1 } });
    for (let i = 0; i < 5; i++) {
      const r = await request(`${s.url}/__sim/stats`);
      await r.body.text();
      expect(r.statusCode).toBe(200);
    }
  });

  it('limits without a word when told to: a 429 with Retry-After, no RateLimit-* headers', async () => {
    const s = await sim({ rateLimit: { rps: 0.5, burst: 2, announce: false } });
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push(await get(s, '/v3/influencers/tags'));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 429]);
    expect(answers[2]!.headers['retry-after']).toBeDefined();
    for (const a of answers) {
      expect(a.headers['ratelimit-limit']).toBeUndefined();
      expect(a.headers['ratelimit-remaining']).toBeUndefined();
      expect(a.headers['ratelimit-reset']).toBeUndefined();
    }
    // The log has each request's arrival, in order, with its status.
    const log = s.requestLog();
    expect(log.map((r) => r.status)).toEqual([200, 200, 429]);
    expect(log[0]).toMatchObject({ endpoint: 'GET /v3/influencers/tags' });
    expect(log[1]!.at).toBeGreaterThanOrEqual(log[0]!.at);
  });

  it('answers overload 429s with a Retry-After drawn from its range', async () => {
    const s = await sim({
      overloadRate: 1,
      retryAfterFormat: 'iso',
      faults: { overloadRetryAfterMs: [1000, 2000] },
    });
    const waits = [];
    for (let i = 0; i < 8; i++) {
      const r = await get(s, '/v3/influencers/campaigns');
      waits.push(Date.parse(String(r.headers['retry-after'])) - Date.now());
    }
    for (const w of waits) {
      expect(w).toBeGreaterThan(1000 - 200);
      expect(w).toBeLessThanOrEqual(2000);
    }
    expect(new Set(waits.map((w) => Math.round(w / 50))).size).toBeGreaterThan(1);
  });

  it('answers 429 in overload mode whatever the limit', async () => {
    const s = await sim({ overloadRate: 1 });
    const r = await get(s, '/v3/influencers/campaigns');
    expect(r.status).toBe(429);
    expect(r.headers['retry-after']).toBeDefined();
    expect(JSON.parse(r.text).message).toBe('Service Overloaded');
  });
});

describe('faults', () => {
  it('answers 500 and 503 at their rates', async () => {
    const s500 = await sim({ faults: { error500Rate: 1 } });
    const r500 = await get(s500, '/v3/influencers/campaigns');
    expect(r500.status).toBe(500);
    expect(Array.isArray(JSON.parse(r500.text).errors)).toBe(true);
    const s503 = await sim({ faults: { error503Rate: 1 } });
    expect((await get(s503, '/v3/influencers/campaigns')).status).toBe(503);
  });

  it('resets the connection mid-body', async () => {
    const s = await sim({ faults: { resetRate: 1 } });
    await expect(get(s, '/v3/influencers/campaigns/5000/posts')).rejects.toThrow();
    expect((s.stats() as Json).faults.reset).toBe(1);
  });

  it('truncates a body shorter than its Content-Length', async () => {
    const s = await sim({ faults: { truncateRate: 1 } });
    await expect(get(s, '/v3/influencers/campaigns/5000/posts')).rejects.toThrow();
  });

  it('sends invalid JSON', async () => {
    const s = await sim({ faults: { invalidJsonRate: 1 } });
    const r = await get(s, '/v3/influencers/campaigns');
    expect(r.status).toBe(200);
    expect(() => JSON.parse(r.text)).toThrow();
  });

  it('delays slow answers by slowMs and sends them whole', async () => {
    const s = await sim({ faults: { slowRate: 1, slowMs: 300 } });
    const started = performance.now();
    const r = await get(s, '/v3/influencers/campaigns');
    expect(performance.now() - started).toBeGreaterThanOrEqual(250);
    expect(JSON.parse(r.text).campaigns.length).toBeGreaterThan(0);
  });

  it('picks the same faults for the same seed and request sequence', async () => {
    const faults = { error500Rate: 0.3, error503Rate: 0.2 };
    const runs: number[][] = [];
    for (let k = 0; k < 2; k++) {
      const s = await sim({ faults });
      const statuses: number[] = [];
      for (let i = 0; i < 30; i++) statuses.push((await get(s, '/v3/influencers/tags')).status);
      runs.push(statuses);
    }
    expect(runs[0]).toEqual(runs[1]);
    expect(new Set(runs[0])).toEqual(new Set([200, 500, 503]));
  });
});

describe('schema drift', () => {
  it('sends the bare campaign with an unknown network, an unknown stat, numeric strings and null metrics', async () => {
    const s = await sim({ drift: true });
    const detail = JSON.parse((await get(s, '/v3/influencers/campaigns/5000')).text) as Json;
    expect(detail.campaign).toBeUndefined();
    expect(detail.id).toBe('5000');
    expect(detail.sources.youtube).toBeDefined();
    expect(typeof detail.metrics.total_emv).toBe('string');
    expect(detail.metrics.engagement_rate).toBeNull();
    const posts = JSON.parse((await get(s, '/v3/influencers/campaigns/5000/posts')).text) as Json;
    expect(posts.posts[0].stats.clicks).toBeDefined();
    expect(typeof posts.posts[0].engagement).toBe('string');
    expect(posts.posts[0].x_partner_note).toBe('drift');
    const influencers = JSON.parse((await get(s, '/v3/influencers/campaigns/5000/influencers')).text) as Json;
    const first = influencers.influencers[0];
    expect(first.influencer_metrics.sources.youtube.followers).toBe('1200');
    expect(typeof first.campaign_metrics.emv).toBe('string');
    expect(first.campaign_metrics.engagement_rate).toBeNull();
    const tags = JSON.parse((await get(s, '/v3/influencers/tags')).text) as Json;
    expect(tags.tags[0].x_partner_note).toBe('drift');
  });
});

describe('determinism and daily refresh', () => {
  it('serves identical data for the same seed and different data for another', async () => {
    const a = await sim();
    const b = await sim();
    const c = await sim({ seed: 4 });
    const path = '/v3/influencers/campaigns/5000/influencers?page_size=100';
    expect((await get(a, path)).text).toBe((await get(b, path)).text);
    expect((await get(a, path)).text).not.toBe((await get(c, path)).text);
  });

  it('moves the figures from one day to the next', async () => {
    const s = await sim();
    const before = JSON.parse((await get(s, '/v3/influencers/campaigns/5000')).text).campaign as Json;
    s.clock.advance(86_400_000);
    const after = JSON.parse((await get(s, '/v3/influencers/campaigns/5000')).text).campaign as Json;
    expect(after.metrics.num_posts).toBe(before.metrics.num_posts);
    expect(after.metrics.total_engagement).toBeGreaterThan(before.metrics.total_engagement);
    expect(after).toEqual(s.model.campaignDetail('5000', {}, '2026-06-10'));
  });

  it('mixes yesterday and today per campaign inside the 18:00-21:00 window only', async () => {
    const s = await sim({
      size: {
        workspaces: 1,
        tagsPerWorkspace: 2,
        campaigns: 40,
        postsPerCampaign: 3,
        influencersPerCampaign: 2,
      },
    });
    const inWindow = new Date('2026-06-10T19:30:00Z');
    const days = new Set(s.model.catalog.campaigns.map((c) => s.model.figureDay(c.index, inWindow)));
    expect(days).toEqual(new Set(['2026-06-09', '2026-06-10']));
    const outside = new Set(s.model.catalog.campaigns.map((c) => s.model.figureDay(c.index, START)));
    expect(outside).toEqual(new Set(['2026-06-09']));
    const late = new Set(
      s.model.catalog.campaigns.map((c) => s.model.figureDay(c.index, new Date('2026-06-10T21:30:00Z'))),
    );
    expect(late).toEqual(new Set(['2026-06-10']));
    s.clock.set(inWindow);
    const seen = new Set<string>();
    for (const c of s.model.catalog.campaigns.filter((c) => c.postCount > 0).slice(0, 12)) {
      const body = JSON.parse((await get(s, `/v3/influencers/campaigns/${c.id}`)).text).campaign as Json;
      const day = ['2026-06-09', '2026-06-10'].find((d) =>
        isDeepStrictEqual(body, s.model.campaignDetail(c.id, {}, d)),
      );
      expect(day).toBeDefined();
      seen.add(day!);
    }
    expect(seen.size).toBe(2);
  });
});

describe('TLS', () => {
  it('serves HTTPS with a self-signed certificate returned as ca', async () => {
    const s = await sim({ tls: true });
    expect(s.url.startsWith('https://127.0.0.1:')).toBe(true);
    expect(s.ca).toContain('BEGIN CERTIFICATE');
    const agent = new Agent({ connect: { ca: s.ca! } });
    const r = await get(s, '/v3/influencers/tags', agent);
    expect(r.status).toBe(200);
    await agent.close();
  });
});
