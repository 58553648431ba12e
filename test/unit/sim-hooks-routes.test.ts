import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createHookService,
  GENERATED_SECRET_LENGTH,
  type HookService,
} from '../../src/simulator/hooks/hook-service.js';
import type { SimResponse } from '../../src/simulator/route.js';
import { callRoute } from '../helpers/sim-hooks-server.js';

const TARGET = 'http://127.0.0.1:9/push';
const SECRET = 'test-secret-0123456789';

interface Hook {
  hook_id: string;
  search_id: number;
  target_url: string;
  search_type: string;
  updated: string;
  version: string;
  status: string;
}

let service: HookService;

beforeEach(() => {
  // No deliveries: these tests exercise the API surface only.
  service = createHookService({ seed: 42, now: () => new Date(), deliveriesPerSecond: 0 });
});
afterEach(async () => {
  await service.close();
});

function create(body: unknown, headers: Record<string, string> = { 'x-hook-secret': SECRET }, query = {}) {
  return callRoute(service.routes, 'POST', '/v3/hooks', { body, headers, query });
}

function errors(response: SimResponse): { details: string; title: string; type: string; meta: object }[] {
  return (response.body as { errors: { details: string; title: string; type: string; meta: object }[] })
    .errors;
}

describe('GET /v3/searches', () => {
  it('lists deterministic searches from 101 with at least two of each type, paged', async () => {
    const response = await callRoute(service.routes, 'GET', '/v3/searches');
    expect(service.routes.find((r) => r.pattern.test('/v3/searches'))?.area).toBe('searches');
    expect(response.status).toBe(200);
    const body = response.body as {
      searches: { id: number; name: string; search_type: string }[];
      total: number;
    };
    expect(body).toMatchObject({ page: 1, page_size: 10 });
    expect(body.searches.slice(0, 6).map((s) => [s.id, s.search_type])).toEqual([
      [101, 'social'],
      [102, 'social'],
      [103, 'editorial'],
      [104, 'editorial'],
      [105, 'broadcast'],
      [106, 'broadcast'],
    ]);
    for (const type of ['social', 'editorial', 'broadcast']) {
      expect(body.searches.filter((s) => s.search_type === type).length).toBeGreaterThanOrEqual(2);
    }
    expect(body.total).toBe(service.searches().length);
    const again = createHookService({ seed: 42, now: () => new Date(), deliveriesPerSecond: 0 });
    expect(again.searches()).toEqual(service.searches());
    await again.close();
  });

  it('pages with page and page_size and rejects a bad page', async () => {
    const second = await callRoute(service.routes, 'GET', '/v3/searches', {
      query: { page: '2', page_size: '2' },
    });
    expect((second.body as { searches: { id: number }[] }).searches.map((s) => s.id)).toEqual([103, 104]);
    const bad = await callRoute(service.routes, 'GET', '/v3/searches', { query: { page: '0' } });
    expect(bad.status).toBe(400);
  });
});

describe('GET /v3/schemas/*_streaming.json', () => {
  it.each(['social', 'editorial', 'broadcast'])(
    'serves the %s schema in the streaming area',
    async (type) => {
      const path = `/v3/schemas/${type}_streaming.json`;
      expect(service.routes.find((r) => r.pattern.test(path))?.area).toBe('streaming');
      const response = await callRoute(service.routes, 'GET', path);
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({
        $schema: 'http://json-schema.org/draft-07/schema#',
        type: 'object',
      });
    },
  );
});

describe('POST /v3/hooks', () => {
  it('201: returns the Hook and echoes the caller secret in X-Hook-Secret', async () => {
    const response = await create({ target_url: TARGET, search_id: 101 }, { 'x-hook-secret': SECRET });
    expect(response.status).toBe(201);
    expect(response.headers?.['X-Hook-Secret']).toBe(SECRET);
    const hook = response.body as Hook;
    expect(hook).toEqual({
      hook_id: expect.stringMatching(/^[0-9a-f]{24}$/),
      search_id: 101,
      target_url: TARGET,
      search_type: 'social',
      updated: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      version: '1',
      status: 'PENDING',
    });
    expect(JSON.stringify(hook)).not.toContain(SECRET);
  });

  it('generates a 32-character secret when the caller sends none, a new one per hook', async () => {
    const first = await create({ target_url: TARGET, search_id: 101 }, {});
    const second = await create({ target_url: TARGET, search_id: 102 }, {});
    const a = first.headers?.['X-Hook-Secret'];
    const b = second.headers?.['X-Hook-Secret'];
    expect(GENERATED_SECRET_LENGTH).toBe(32);
    expect(a).toMatch(/^[0-9a-f]{32}$/);
    expect(b).toMatch(/^[0-9a-f]{32}$/);
    expect(a).not.toBe(b);
  });

  it.each([
    [16, 201],
    [64, 201],
    [15, 400],
    [65, 400],
    [0, 400],
  ])('a secret of %i characters gives %i', async (length, status) => {
    const response = await create(
      { target_url: TARGET, search_id: 103 },
      { 'x-hook-secret': 'k'.repeat(length) },
    );
    expect(response.status).toBe(status);
    if (status === 400) expect(errors(response)[0]?.meta).toEqual({ field: 'X-Hook-Secret' });
  });

  it.each([
    ['missing target_url', { search_id: 101 }],
    ['missing search_id', { target_url: TARGET }],
    ['search_id as a string', { target_url: TARGET, search_id: '101' }],
    ['search_id not an integer', { target_url: TARGET, search_id: 101.5 }],
    ['target_url not a string', { target_url: 42, search_id: 101 }],
    ['target_url not a URL', { target_url: 'not a url', search_id: 101 }],
    ['target_url not http(s)', { target_url: 'ftp://127.0.0.1/x', search_id: 101 }],
    ['an array body', [{ target_url: TARGET, search_id: 101 }]],
  ])('400 ErrorsCollection for %s', async (_name, body) => {
    const response = await create(body);
    expect(response.status).toBe(400);
    expect(errors(response).length).toBeGreaterThan(0);
    expect(errors(response)[0]).toEqual({
      details: expect.any(String),
      title: expect.any(String),
      type: 'invalid_request',
      meta: expect.any(Object),
    });
  });

  it('400 for a body that is not JSON or is empty', async () => {
    const notJson = await callRoute(service.routes, 'POST', '/v3/hooks', { rawBody: '{"target_url": ' });
    const empty = await callRoute(service.routes, 'POST', '/v3/hooks', { rawBody: '' });
    expect(notJson.status).toBe(400);
    expect(empty.status).toBe(400);
    expect(errors(notJson)[0]?.meta).toEqual({ field: 'body' });
  });

  it('404 ErrorsCollection for an unknown search', async () => {
    const response = await create({ target_url: TARGET, search_id: 999 });
    expect(response.status).toBe(404);
    expect(errors(response)[0]).toMatchObject({ type: 'not_found', meta: { search_id: 999 } });
  });

  it('409 for the same search_id and target_url as a live hook; 201 again once it is deleted', async () => {
    const first = await create({ target_url: TARGET, search_id: 104 });
    expect((await create({ target_url: TARGET, search_id: 104 })).status).toBe(409);
    // The same URL written differently is the same target.
    expect((await create({ target_url: 'HTTP://127.0.0.1:9/push', search_id: 104 })).status).toBe(409);
    expect((await create({ target_url: TARGET, search_id: 105 })).status).toBe(201);
    const id = (first.body as Hook).hook_id;
    expect((await callRoute(service.routes, 'DELETE', `/v3/hooks/${id}`)).status).toBe(204);
    expect((await create({ target_url: TARGET, search_id: 104 })).status).toBe(201);
  });
});

describe('GET and DELETE /v3/hooks', () => {
  it('lists hooks paged, fetches one by id, and 404s unknown ids', async () => {
    const a = (await create({ target_url: TARGET, search_id: 101 })).body as Hook;
    const b = (await create({ target_url: TARGET, search_id: 102 })).body as Hook;
    const list = await callRoute(service.routes, 'GET', '/v3/hooks');
    expect(list.status).toBe(200);
    expect(list.body).toEqual({ hooks: [a, b], page: 1, page_size: 10, total: 2 });
    const page2 = await callRoute(service.routes, 'GET', '/v3/hooks', {
      query: { page: '2', page_size: '1' },
    });
    expect(page2.body).toEqual({ hooks: [b], page: 2, page_size: 1, total: 2 });

    const one = await callRoute(service.routes, 'GET', `/v3/hooks/${a.hook_id}`);
    expect(one).toEqual({ status: 200, body: { hook: a } });
    const missing = await callRoute(service.routes, 'GET', '/v3/hooks/000000000000000000000000');
    expect(missing.status).toBe(404);
    expect(errors(missing)[0]).toMatchObject({
      type: 'not_found',
      meta: { hook_id: '000000000000000000000000' },
    });
  });

  it('DELETE answers 204 without a body, then 404; the hook is gone from the list', async () => {
    const hook = (await create({ target_url: TARGET, search_id: 101 })).body as Hook;
    const deleted = await callRoute(service.routes, 'DELETE', `/v3/hooks/${hook.hook_id}`);
    expect(deleted).toEqual({ status: 204 });
    const again = await callRoute(service.routes, 'DELETE', `/v3/hooks/${hook.hook_id}`);
    expect(again.status).toBe(404);
    expect(errors(again)[0]?.type).toBe('not_found');
    expect((await callRoute(service.routes, 'GET', `/v3/hooks/${hook.hook_id}`)).status).toBe(404);
    expect((await callRoute(service.routes, 'GET', '/v3/hooks')).body).toMatchObject({ hooks: [], total: 0 });
  });

  it('DELETE without a hook_id is a 400 ErrorsCollection', async () => {
    const response = await callRoute(service.routes, 'DELETE', '/v3/hooks/');
    expect(response.status).toBe(400);
    expect(errors(response)[0]).toMatchObject({ type: 'invalid_request', meta: { field: 'hook_id' } });
  });

  it('hook ids are deterministic per seed and creation order', async () => {
    const other = createHookService({ seed: 42, now: () => new Date(), deliveriesPerSecond: 0 });
    const a = (await create({ target_url: TARGET, search_id: 101 })).body as Hook;
    const b = (
      await callRoute(other.routes, 'POST', '/v3/hooks', { body: { target_url: TARGET, search_id: 101 } })
    ).body as Hook;
    expect(b.hook_id).toBe(a.hook_id);
    await other.close();
  });

  it('every hook route is in the streaming area', () => {
    const hookRoutes = service.routes.filter(
      (r) => r.pattern.test('/v3/hooks') || r.pattern.test('/v3/hooks/x'),
    );
    expect(hookRoutes.map((r) => r.method).sort()).toEqual(['DELETE', 'DELETE', 'GET', 'GET', 'POST']);
    expect(new Set(hookRoutes.map((r) => r.area))).toEqual(new Set(['streaming']));
  });
});
