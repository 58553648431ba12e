import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createApiClient } from '../../src/api/create-api-client.js';
import { FatalApiError, RetriableApiError } from '../../src/api/errors.js';
import { parseRetryAfter } from '../../src/api/parse-retry-after.js';
import type { ApiClient, RawRecord } from '../../src/api/types.js';
import { validateBaseUrl } from '../../src/api/validate-base-url.js';

type Script = (req: IncomingMessage, res: ServerResponse, n: number) => void;
interface Stub {
  url: string;
  hits: { path: string; at: number }[];
  inFlightMax: number;
}

const servers: Server[] = [];
const clients: ApiClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await Promise.all(
    servers.splice(0).map((s) => {
      s.closeAllConnections();
      return new Promise((r) => s.close(r));
    }),
  );
});

async function stub(script: Script): Promise<Stub> {
  const state: Stub = { url: '', hits: [], inFlightMax: 0 };
  let inFlight = 0;
  const server = createServer((req, res) => {
    state.hits.push({ path: req.url ?? '', at: Date.now() });
    inFlight++;
    state.inFlightMax = Math.max(state.inFlightMax, inFlight);
    res.on('close', () => inFlight--);
    res.setHeader('X-Request-Id', `req-${state.hits.length}`);
    script(req, res, state.hits.length);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  servers.push(server);
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return state;
}

function client(url: string, extra: Partial<Parameters<typeof createApiClient>[0]> = {}): ApiClient {
  const c = createApiClient({
    baseUrl: url,
    apiKey: 'stub-key-secret',
    rps: 1000,
    concurrency: 4,
    maxRetries: 3,
    pageSize: 2,
    retryBaseMs: 5,
    ...extra,
  });
  clients.push(c);
  return c;
}

const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
};

async function collect(pages: AsyncIterable<RawRecord[]>): Promise<RawRecord[]> {
  const out: RawRecord[] = [];
  for await (const page of pages) out.push(...page);
  return out;
}

describe('Retry-After', () => {
  const now = Date.parse('2026-11-22T22:00:00Z');
  it.each([
    ['2026-11-22T22:00:05Z', 5000],
    ['Sun, 22 Nov 2026 22:00:07 GMT', 7000],
    [String(now / 1000 + 3), 3000],
    ['4', 4000],
    ['garbage', undefined],
    [undefined, undefined],
  ])('%s → %s ms', (value, ms) => {
    expect(parseRetryAfter(value, now)).toBe(ms);
  });

  it('pauses every request until the time a 429 names', async () => {
    const s = await stub((_req, res, n) => {
      if (n === 1)
        json(
          res,
          429,
          { message: 'Service Overloaded', errors: {} },
          { 'Retry-After': new Date(Date.now() + 400).toISOString() },
        );
      else json(res, 200, { campaign: { id: String(n) } });
    });
    const c = client(s.url, { concurrency: 1 });
    const events: string[] = [];
    const c2 = createApiClient({
      baseUrl: s.url,
      apiKey: 'k',
      rps: 1000,
      concurrency: 1,
      onEvent: (e) => events.push(e.type),
    });
    clients.push(c2);
    const first = c.campaign('a');
    await first;
    const afterPause = s.hits[1]!.at - s.hits[0]!.at;
    expect(afterPause).toBeGreaterThanOrEqual(350);
    expect(c.stats.throttled).toBe(1);
    await c2.campaign('b');
    expect(events).toContain('request');
  });

  it('caps a Retry-After far in the future and reports it', async () => {
    const s = await stub((_req, res, n) => {
      if (n === 1) json(res, 429, {}, { 'Retry-After': '2099-01-01T00:00:00Z' });
      else json(res, 200, { campaign: { id: 'x' } });
    });
    const events: { type: string; capped?: boolean; waitMs?: number }[] = [];
    const c = client(s.url, { maxRetryAfterMs: 50, onEvent: (e) => events.push(e) });
    await c.campaign('x');
    expect(events.find((e) => e.type === 'throttled')).toMatchObject({ capped: true, waitMs: 50 });
  });
});

describe('retries', () => {
  it('retries 500, 503, truncated bodies, resets and invalid JSON, then succeeds', async () => {
    const s = await stub((_req, res, n) => {
      if (n === 1) json(res, 500, {});
      else if (n === 2) json(res, 503, {});
      else if (n === 3) {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
        res.write('{"campaign":');
        res.socket?.end();
      } else if (n === 4) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"camp');
        res.socket?.resetAndDestroy();
      } else if (n === 5) res.writeHead(200, { 'content-type': 'application/json' }).end('{"campaign": nope');
      else json(res, 200, { campaign: { id: 'ok' } });
    });
    const c = client(s.url, { maxRetries: 6 });
    expect(await c.campaign('ok')).toEqual({ id: 'ok' });
    expect(c.stats.retries).toBe(5);
  });

  it('gives up after the bounded retries with endpoint and request id', async () => {
    const s = await stub((_req, res) => json(res, 503, {}));
    const c = client(s.url, { maxRetries: 2 });
    const error = await c.campaign('9').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RetriableApiError);
    expect((error as Error).message).toBe(
      'giving up after 3 attempts on GET /v3/influencers/campaigns/9 (X-Request-Id req-3): 503 Service Unavailable on GET /v3/influencers/campaigns/9 (X-Request-Id req-3)',
    );
    expect(s.hits).toHaveLength(3);
  });

  it.each([
    [
      401,
      /^401 Unauthorized on GET \/v3\/influencers\/campaigns \(X-Request-Id req-1\): the API key is invalid or expired/,
    ],
    [403, /this API key is not entitled to the influencer endpoints/],
    [404, /^404 Not Found on GET \/v3\/influencers\/campaigns \(X-Request-Id req-1\): nope$/],
  ])('never retries %i and says why, without the key', async (status, message) => {
    const s = await stub((_req, res) => json(res, status, { errors: [{ details: 'nope' }] }));
    const c = client(s.url);
    const error = await collect(c.campaigns()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FatalApiError);
    expect((error as Error).message).toMatch(message);
    expect((error as Error).message).not.toContain('stub-key-secret');
    expect(s.hits).toHaveLength(1);
  });
});

describe('paging', () => {
  const items = (from: number, count: number) =>
    Array.from({ length: count }, (_, i) => ({ id: String(from + i) }));

  it('reads every page until total, sending the filters comma-separated', async () => {
    const s = await stub((req, res) => {
      const url = new URL(req.url!, 'http://x');
      const page = Number(url.searchParams.get('page'));
      json(res, 200, { posts: items((page - 1) * 2, page === 3 ? 1 : 2), page, page_size: 2, total: 5 });
    });
    const posts = await collect(
      client(s.url).campaignPosts('c1', { sources: ['instagram', 'tiktok'], tags: ['12', '40'] }),
    );
    expect(posts.map((p) => p.id)).toEqual(['0', '1', '2', '3', '4']);
    expect(s.hits[0]!.path).toContain('sources=instagram%2Ctiktok');
    expect(s.hits[0]!.path).toContain('tags=12%2C40');
  });

  it('treats a response without paging fields as one complete page', async () => {
    const s = await stub((_req, res) => json(res, 200, { count: 2, workspaces: items(0, 2) }));
    expect(await collect(client(s.url).workspaces())).toHaveLength(2);
    expect(s.hits).toHaveLength(1);
  });

  it('stops at a short page even when total says more', async () => {
    const s = await stub((_req, res) =>
      json(res, 200, { tags: items(0, 1), page: 1, page_size: 2, total: 50 }),
    );
    expect(await collect(client(s.url).tags())).toHaveLength(1);
  });

  it('detects a server that repeats a page', async () => {
    const s = await stub((_req, res) =>
      json(res, 200, { campaigns: items(0, 2), page: 1, page_size: 2, total: 10 }),
    );
    await expect(collect(client(s.url).campaigns())).rejects.toThrow(/loop detected in pagination/);
    expect(s.hits.length).toBeLessThanOrEqual(2);
  });

  it('rejects a response without the expected array', async () => {
    const s = await stub((_req, res) => json(res, 200, { data: [] }));
    await expect(collect(client(s.url).campaigns())).rejects.toThrow(/no "campaigns" array/);
  });
});

describe('transport', () => {
  it('accepts https and loopback http only', () => {
    expect(validateBaseUrl('https://api.example.com').host).toBe('api.example.com');
    expect(validateBaseUrl('http://127.0.0.1:8080').port).toBe('8080');
    expect(validateBaseUrl('http://localhost:1').hostname).toBe('localhost');
    expect(validateBaseUrl('http://[::1]:1').hostname).toBe('[::1]');
    expect(() => validateBaseUrl('http://api.example.com')).toThrow(/must use https/);
    expect(() => validateBaseUrl('not a url')).toThrow(/not a URL/);
  });

  it('never has more requests in flight than the concurrency', async () => {
    const s = await stub((_req, res) => setTimeout(() => json(res, 200, { campaign: { id: 'x' } }), 20));
    const c = client(s.url, { concurrency: 2 });
    await Promise.all(Array.from({ length: 8 }, (_, i) => c.campaign(String(i))));
    expect(s.inFlightMax).toBeLessThanOrEqual(2);
    expect(s.hits).toHaveLength(8);
  });

  it('unwraps the campaign and tolerates the bare object', async () => {
    const s = await stub((_req, res, n) =>
      json(res, 200, n === 1 ? { campaign: { id: 'w' } } : { id: 'bare' }),
    );
    const c = client(s.url);
    expect(await c.campaign('w')).toEqual({ id: 'w' });
    expect(await c.campaign('bare')).toEqual({ id: 'bare' });
  });
});
