/**
 * The streaming area over real HTTP on loopback: the hook API served through the test
 * adapter, deliveries reaching a receiver, signatures checked with node:crypto alone, and
 * documents validated against the schemas the API itself serves.
 */
import { createHmac } from 'node:crypto';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { afterEach, describe, expect, it } from 'vitest';
import { createHookService, type HookService } from '../../src/simulator/hooks/hook-service.js';
import {
  parsePush,
  type Receiver,
  type RunningServer,
  startReceiver,
  startRouteServer,
} from '../helpers/sim-hooks-server.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;
const SECRET = 'integration-secret-1234567890';

let service: HookService | undefined;
let api: RunningServer | undefined;
let receiver: Receiver | undefined;

afterEach(async () => {
  await service?.close();
  await api?.close();
  await receiver?.close();
  service = api = receiver = undefined;
});

async function setUp(respond?: () => number) {
  receiver = await startReceiver(respond ? { respond } : {});
  service = createHookService({
    seed: 3,
    now: () => new Date(),
    deliveriesPerSecond: 20,
    documentsPerDelivery: 4,
    duplicateRate: 0,
  });
  api = await startRouteServer(service.routes);
  return { receiver, service, api };
}

describe('streaming area over HTTP', () => {
  it('creates a hook, pushes signed documents that match the served schema, then stops on DELETE', async () => {
    const { receiver, service, api } = await setUp();
    const created = await fetch(`${api.url}/v3/hooks?company_id=acme-co`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'X-Hook-Secret': SECRET },
      body: JSON.stringify({ target_url: `${receiver.url}/push/inbox`, search_id: 103 }),
    });
    expect(created.status).toBe(201);
    expect(created.headers.get('x-hook-secret')).toBe(SECRET);
    const hook = (await created.json()) as { hook_id: string; search_type: string };
    expect(hook.search_type).toBe('editorial');

    await receiver.waitFor(5);
    const schema = await (await fetch(`${api.url}/v3/schemas/editorial_streaming.json`)).json();
    const ajv = new Ajv({ strict: true });
    addFormats(ajv);
    const validate = ajv.compile(schema as object);

    for (const push of receiver.received.slice(0, 5)) {
      expect(push.path).toBe('/push/inbox');
      expect(push.headers['content-type']).toBe('application/json');
      const sha1 = createHmac('sha1', SECRET).update(push.body).digest('hex');
      const sha256 = createHmac('sha256', SECRET).update(push.body).digest('hex');
      expect(push.headers['x-hub-signature']).toBe(`sha1=${sha1}`);
      expect(push.headers['x-hub-signature-256']).toBe(`sha256=${sha256}`);
      const body = parsePush(push);
      expect(body.request).toEqual({ hook_id: hook.hook_id, search_id: 103, company_id: 'acme-co' });
      expect(body.documents.length).toBeGreaterThanOrEqual(1);
      expect(body.documents.length).toBeLessThanOrEqual(4);
      for (const doc of body.documents) expect(validate(doc), JSON.stringify(validate.errors)).toBe(true);
    }

    // The first acknowledged delivery makes the hook ACTIVE (a new version of the record).
    const fetched = await fetch(`${api.url}/v3/hooks/${hook.hook_id}`);
    expect(fetched.status).toBe(200);
    expect(fetched.headers.get('x-request-id')).toBeTruthy();
    expect(await fetched.json()).toMatchObject({
      hook: { hook_id: hook.hook_id, status: 'ACTIVE', version: '2' },
    });
    expect(service.stats()).toMatchObject({ liveHooks: 1, failed: 0, retried: 0 });
    expect(service.stats().acknowledged).toBeGreaterThanOrEqual(5);

    const deleted = await fetch(`${api.url}/v3/hooks/${hook.hook_id}`, { method: 'DELETE' });
    expect(deleted.status).toBe(204);
    expect(await deleted.text()).toBe('');
    await new Promise((r) => setTimeout(r, 200));
    const seen = receiver.received.length;
    await new Promise((r) => setTimeout(r, 400));
    expect(receiver.received.length).toBe(seen);
    expect(service.stats()).toMatchObject({ liveHooks: 0, deliveringHooks: 0, pendingRedeliveries: 0 });
    expect((await fetch(`${api.url}/v3/hooks/${hook.hook_id}`)).status).toBe(404);
  });

  it('uses the generated secret for signatures and the default company when none is given', async () => {
    const { receiver, api } = await setUp();
    const created = await fetch(`${api.url}/v3/hooks`, {
      method: 'POST',
      body: JSON.stringify({ target_url: receiver.url, search_id: 101 }),
    });
    const secret = created.headers.get('x-hook-secret') ?? '';
    expect(secret).toHaveLength(32);
    await receiver.waitFor(2);
    const push = receiver.received[0]!;
    expect(push.headers['x-hub-signature']).toBe(
      `sha1=${createHmac('sha1', secret).update(push.body).digest('hex')}`,
    );
    const body = parsePush(push);
    expect(body.request.company_id).toMatch(/^[0-9a-f]{24}$/);
    expect(body.documents[0]).toHaveProperty('author');
    expect(body.documents[0]).toHaveProperty('metrics');
  });

  it('answers 400, 404 and 409 over HTTP with ErrorsCollection bodies', async () => {
    const { receiver, api } = await setUp();
    const post = (body: string, headers: Record<string, string> = {}) =>
      fetch(`${api.url}/v3/hooks`, { method: 'POST', body, headers });
    const bad = await post('not json');
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ errors: [{ type: 'invalid_request' }] });
    expect(
      (await post(JSON.stringify({ target_url: receiver.url, search_id: 101 }), { 'X-Hook-Secret': 'short' }))
        .status,
    ).toBe(400);
    const unknown = await post(JSON.stringify({ target_url: receiver.url, search_id: 4242 }));
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ errors: [{ type: 'not_found' }] });
    expect((await post(JSON.stringify({ target_url: receiver.url, search_id: 105 }))).status).toBe(201);
    const conflict = await post(JSON.stringify({ target_url: receiver.url, search_id: 105 }));
    expect(conflict.status).toBe(409);
    expect(await conflict.json()).toMatchObject({ errors: [{ type: 'conflict' }] });
  });
});
