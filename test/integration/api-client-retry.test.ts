import { afterEach, describe, expect, it } from 'vitest';
import { createApiClient } from '../../src/api/create-api-client.js';
import { RetriableApiError } from '../../src/api/errors.js';
import type { ApiClient, ApiClientOptions, ApiEvent } from '../../src/api/types.js';
import {
  type StubApiServer,
  type StubReply,
  sequence,
  startStubApiServer,
} from '../helpers/stub-api-server.js';

const KEY = 'retry-test-key-0123456789';
const OK: StubReply = { body: { campaign: { id: '1', name: 'ok' } } };
const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0)) await fn();
});

async function setup(
  script: Parameters<typeof startStubApiServer>[0],
  extra: Partial<ApiClientOptions> = {},
) {
  const stub: StubApiServer = await startStubApiServer(script);
  const events: ApiEvent[] = [];
  const client: ApiClient = createApiClient({
    baseUrl: stub.url,
    apiKey: KEY,
    rps: 1000,
    concurrency: 4,
    retryBaseMs: 5,
    onEvent: (e) => events.push(e),
    ...extra,
  });
  cleanup.push(
    () => client.close(),
    () => stub.close(),
  );
  return { stub, client, events };
}

describe('API client retries', () => {
  it('retries 500, 503, a reset, a truncated body and invalid JSON, then succeeds', async () => {
    const { stub, client, events } = await setup(
      sequence(
        { status: 500, body: { errors: [] } },
        { status: 503 },
        { fault: 'reset' },
        { ...OK, fault: 'truncate' },
        { body: '{"campaign": {"id": ' },
        OK,
      ),
    );
    expect(await client.campaign('1')).toEqual({ id: '1', name: 'ok' });
    expect(stub.requests).toHaveLength(6);
    expect(client.stats.retries).toBe(5);
    const retries = events.filter((e) => e.type === 'retry');
    expect(retries.map((e) => e.attempt)).toEqual([1, 2, 3, 4, 5]);
    expect(retries.map((e) => e.reason).join('\n')).toMatch(
      /500[\s\S]*503[\s\S]*connection failed[\s\S]*body read[\s\S]*JSON/,
    );
    expect(JSON.stringify(events)).not.toContain(KEY);
  });

  it('retries a timeout (headersTimeout)', async () => {
    // undici checks headersTimeout on a coarse timer (ticks of ~0.5 s): the stall must outlast that.
    const { stub, client } = await setup(sequence({ ...OK, delayMs: 3000 }, OK), { timeoutMs: 100 });
    expect(await client.campaign('1')).toEqual({ id: '1', name: 'ok' });
    expect(stub.requests).toHaveLength(2);
    expect(client.stats.retries).toBe(1);
  });

  it('gives up after maxRetries + 1 attempts with a RetriableApiError naming endpoint and request id', async () => {
    const { stub, client } = await setup(sequence({ status: 503 }), { maxRetries: 2 });
    const error = await client.campaign('123').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RetriableApiError);
    const e = error as RetriableApiError;
    expect(e.message).toBe(
      'giving up after 3 attempts on GET /v3/influencers/campaigns/123 (X-Request-Id req-3): 503 Service Unavailable',
    );
    expect(e).toMatchObject({
      endpoint: 'GET /v3/influencers/campaigns/123',
      requestId: 'req-3',
      status: 503,
      retriable: true,
      exitCode: 1,
    });
    expect(stub.requests).toHaveLength(3);
    expect(e.message).not.toContain(KEY);
  });

  it('bounds the 429s one request tolerates', async () => {
    // Each 429 halves the rate: start high so 20 halvings stay fast.
    const { stub, client } = await setup(sequence({ status: 429, headers: { 'Retry-After': '0' } }), {
      rps: 1e6,
    });
    const error = await client.campaign('9').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RetriableApiError);
    expect((error as Error).message).toMatch(/rate-limited .*GET \/v3\/influencers\/campaigns\/9.*429/);
    expect(stub.requests).toHaveLength(21);
    expect(client.stats.throttled).toBe(21);
  });

  it('sends the apikey header on every request, retries included', async () => {
    const { stub, client } = await setup(sequence({ status: 502 }, OK));
    await client.campaign('1');
    expect(stub.requests.map((r) => r.headers.apikey)).toEqual([KEY, KEY]);
  });
});
