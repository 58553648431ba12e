import { describe, expect, it } from 'vitest';
import { FatalApiError } from '../../src/api/errors.js';
import type { ApiClient } from '../../src/api/types.js';
import { stubApiClients } from '../helpers/stub-api-client.js';
import { type StubReply, sequence } from '../helpers/stub-api-server.js';

const KEY = 'endpoints-test-key-0123456789';
const setup = stubApiClients(KEY, { pageSize: 2 });

async function collect<T>(pages: AsyncIterable<T[]>): Promise<T[][]> {
  const out: T[][] = [];
  for await (const p of pages) out.push(p);
  return out;
}

describe('API client endpoints', () => {
  it('pages a list with page and page_size until total', async () => {
    const { stub, client } = await setup((req) => {
      const page = Number(req.query.get('page'));
      const ids = page === 1 ? ['1', '2'] : ['3'];
      return { body: { campaigns: ids.map((id) => ({ id })), page, page_size: 2, total: 3 } };
    });
    const pages = await collect(client.campaigns());
    expect(pages.map((p) => p.map((c) => c.id))).toEqual([['1', '2'], ['3']]);
    expect(stub.requests.map((r) => r.query.toString())).toEqual([
      'page=1&page_size=2',
      'page=2&page_size=2',
    ]);
  });

  it('fails with "loop detected in pagination" on a server repeating a page', async () => {
    const { client } = await setup(() => ({
      body: { tags: [{ id: 'a' }, { id: 'b' }], page: 1, page_size: 2, total: 9 },
    }));
    await expect(collect(client.tags())).rejects.toThrow(
      /loop detected in pagination on GET \/v3\/influencers\/tags/,
    );
  });

  it('sends filters comma-joined and omits empty ones', async () => {
    const { stub, client } = await setup(() => ({ body: { posts: [], influencers: [] } }));
    await collect(client.campaignPosts('7', { sources: ['instagram', 'tiktok'], tags: ['12', '40'] }));
    await collect(client.campaignInfluencers('7', { sources: [], tags: [] }));
    expect(stub.requests[0]!.path).toBe('/v3/influencers/campaigns/7/posts');
    expect(stub.requests[0]!.query.get('sources')).toBe('instagram,tiktok');
    expect(stub.requests[0]!.query.get('tags')).toBe('12,40');
    expect(stub.requests[1]!.query.has('sources')).toBe(false);
    expect(stub.requests[1]!.query.has('tags')).toBe(false);
  });

  it('unwraps {campaign} and tolerates the bare object', async () => {
    const { client } = await setup(
      sequence({ body: { campaign: { id: '5', name: 'w' } } }, { body: { id: '5', name: 'b' } }),
    );
    expect(await client.campaign('5')).toEqual({ id: '5', name: 'w' });
    expect(await client.campaign('5')).toEqual({ id: '5', name: 'b' });
  });

  it('creates, gets, lists and deletes hooks; fetches schemas and searches', async () => {
    const hook = {
      hook_id: 'h1',
      search_id: 42,
      target_url: 'https://sink.example/push',
      search_type: 'social',
    };
    const { stub, client } = await setup((req) => {
      if (req.method === 'POST')
        return { status: 201, body: hook, headers: { 'X-Hook-Secret': 'generated-secret-0123' } };
      if (req.method === 'DELETE') return { status: 204 };
      if (req.path === '/v3/hooks') return { body: { hooks: [hook] } };
      if (req.path === '/v3/hooks/h1') return { body: { hook } };
      if (req.path === '/v3/searches') return { body: { searches: [{ id: 42 }] } };
      return { body: { $schema: 'http://json-schema.org/draft-07/schema#' } };
    });
    const created = await client.createHook({
      searchId: 42,
      targetUrl: hook.target_url,
      companyId: 'c9',
      secret: 'caller-secret-0123456789',
    });
    expect(created).toEqual({ hook, secret: 'generated-secret-0123' });
    const post = stub.requests[0]!;
    expect(JSON.parse(post.body)).toEqual({ target_url: hook.target_url, search_id: 42 });
    expect(post.headers['x-hook-secret']).toBe('caller-secret-0123456789');
    expect(post.query.get('company_id')).toBe('c9');
    expect(await client.getHook('h1')).toEqual(hook);
    expect(await client.listHooks()).toEqual([hook]);
    await client.deleteHook('h1');
    expect(await client.schema('social')).toHaveProperty('$schema');
    expect(await client.searches()).toEqual({ searches: [{ id: 42 }] });
    expect(stub.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'POST /v3/hooks',
      'GET /v3/hooks/h1',
      'GET /v3/hooks',
      'DELETE /v3/hooks/h1',
      'GET /v3/schemas/social_streaming.json',
      'GET /v3/searches',
    ]);
    expect(stub.requests.every((r) => r.headers.apikey === KEY)).toBe(true);
    expect(client.stats.requests).toBe(6);
  });
});

describe('API client errors (never retried, one line, no key)', () => {
  const cases: [string, StubReply, (c: ApiClient) => Promise<unknown>, string][] = [
    [
      '401',
      { status: 401 },
      (c) => collect(c.campaigns()),
      '401 Unauthorized on GET /v3/influencers/campaigns (X-Request-Id req-1): the API key is invalid or expired (check CW_API_KEY)',
    ],
    [
      '403 influencers',
      { status: 403 },
      (c) => collect(c.campaigns()),
      '403 Forbidden on GET /v3/influencers/campaigns (X-Request-Id req-1): this API key is not entitled to the influencer endpoints',
    ],
    [
      '403 streaming',
      { status: 403 },
      (c) => c.listHooks(),
      '403 Forbidden on GET /v3/hooks (X-Request-Id req-1): this API key is not entitled to streaming (hooks)',
    ],
    [
      '404 hook',
      { status: 404, body: { errors: [{ details: 'hook not found' }] } },
      (c) => c.getHook('zz'),
      '404 Not Found on GET /v3/hooks/zz (X-Request-Id req-1): no such hook',
    ],
    [
      '404 search',
      { status: 404, body: { errors: [{ details: 'search not found' }] } },
      (c) => c.createHook({ searchId: 1, targetUrl: 'https://x.example/' }),
      '404 Not Found on POST /v3/hooks (X-Request-Id req-1): no such search',
    ],
    [
      '409',
      { status: 409 },
      (c) => c.createHook({ searchId: 1, targetUrl: 'https://x.example/' }),
      '409 Conflict on POST /v3/hooks (X-Request-Id req-1): a hook already exists for this search and target URL',
    ],
    [
      '400',
      {
        status: 400,
        body: { errors: [{ title: 'Bad Request', details: 'X-Hook-Secret must be 16 to 64 characters' }] },
      },
      (c) => c.createHook({ searchId: 1, targetUrl: 'https://x.example/', secret: 'short' }),
      '400 Bad Request on POST /v3/hooks (X-Request-Id req-1): X-Hook-Secret must be 16 to 64 characters',
    ],
  ];

  it.each(cases)('%s', async (_name, reply, act, message) => {
    const { stub, client, events } = await setup(() => reply);
    const error = await act(client).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FatalApiError);
    const e = error as FatalApiError;
    expect(e.message).toBe(message);
    expect(e).toMatchObject({ status: reply.status, requestId: 'req-1', retriable: false, exitCode: 1 });
    expect(stub.requests).toHaveLength(1);
    expect(client.stats.retries).toBe(0);
    expect(e.message).not.toContain(KEY);
    expect(JSON.stringify(events)).not.toContain(KEY);
  });

  it('fails naming the endpoint when a list has the wrong shape', async () => {
    const { client } = await setup(() => ({ body: { items: [] } }));
    await expect(collect(client.workspaces())).rejects.toThrow(
      /GET \/v3\/accounts\/me\/partner\/workspaces: no "workspaces" array/,
    );
  });
});
