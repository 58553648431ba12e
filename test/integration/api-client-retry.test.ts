import { describe, expect, it } from 'vitest';
import { RetriableApiError } from '../../src/api/errors.js';
import type { ApiClientOptions, ApiEvent } from '../../src/api/types.js';
import { stubApiClients } from '../helpers/stub-api-client.js';
import { type StubReply, type StubScript, sequence } from '../helpers/stub-api-server.js';

const KEY = 'retry-test-key-0123456789';
const OK: StubReply = { body: { campaign: { id: '1', name: 'ok' } } };
const setup = stubApiClients(KEY);

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

  it('an empty 200 body is retried as a truncated one, and reported as "empty body"', async () => {
    const once = await setup(sequence({ body: '' }, OK));
    expect(await once.client.campaign('1')).toEqual({ id: '1', name: 'ok' });
    expect(once.client.stats.retries).toBe(1);
    const always = await setup(sequence({ body: '' }), { maxRetries: 2 });
    const error = await always.client.campaign('1').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RetriableApiError);
    expect((error as Error).message).toBe(
      'giving up after 3 attempts on GET /v3/influencers/campaigns/1 (X-Request-Id req-3): 200 OK with an empty body',
    );
  });

  it('cuts a response that drips past its deadline (headers or body) and retries it', async () => {
    // Far longer than the deadline however fast the machine: 400 bytes at one per 50 ms.
    const dripping: StubReply = {
      body: `${JSON.stringify(OK.body)}${' '.repeat(400)}`,
      fault: 'drip',
      dripMs: 50,
    };
    const body = await setup(sequence(dripping, OK), { responseDeadlineMs: 300 });
    expect(await body.client.campaign('1')).toEqual({ id: '1', name: 'ok' });
    expect(body.stub.requests).toHaveLength(2);
    const reasons = body.events.flatMap((e) => (e.type === 'retry' ? [e.reason] : []));
    expect(reasons).toEqual([
      '200 OK body read failed (response deadline of 300 ms passed before the body was complete)',
    ]);

    const late = await setup(sequence({ ...OK, delayMs: 20_000 }), {
      responseDeadlineMs: 300,
      maxRetries: 1,
    });
    const error = await late.client.campaign('2').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RetriableApiError);
    expect((error as Error).message).toBe(
      'giving up after 2 attempts on GET /v3/influencers/campaigns/2: connection failed (response deadline of 300 ms passed before the headers came)',
    );
  });

  it('sends the apikey header on every request, retries included', async () => {
    const { stub, client } = await setup(sequence({ status: 502 }, OK));
    await client.campaign('1');
    expect(stub.requests.map((r) => r.headers.apikey)).toEqual([KEY, KEY]);
  });
});

describe('API client stopped by its signal', () => {
  const STOPPED = new Error('stopped as asked');

  async function stopWhen(
    event: (e: ApiEvent) => boolean,
    script: StubScript,
    extra: Partial<ApiClientOptions> = {},
  ) {
    const abort = new AbortController();
    const { stub, client } = await setup(script, {
      ...extra,
      signal: abort.signal,
      onEvent: (e) => {
        if (event(e)) abort.abort(STOPPED);
      },
    });
    return { stub, client, abort };
  }

  it('tears down a request in flight at once, rejecting with the reason', async () => {
    const abort = new AbortController();
    const { stub, client } = await setup(
      sequence({ body: ' '.repeat(100_000), fault: 'drip', onDrip: () => abort.abort(STOPPED) }),
      { signal: abort.signal },
    );
    await expect(client.campaign('1')).rejects.toBe(STOPPED);
    expect(stub.requests).toHaveLength(1);
  });

  it('cuts a far Retry-After short (capped at the maximum, reported) and a backoff', async () => {
    const tenYears = new Date(Date.now() + 10 * 365 * 86_400_000).toISOString();
    const events: ApiEvent[] = [];
    const paused = await stopWhen(
      (e) => events.push(e) > 0 && e.type === 'throttled',
      sequence({ status: 429, headers: { 'Retry-After': tenYears } }),
    );
    await expect(paused.client.campaign('1')).rejects.toBe(STOPPED);
    expect(events.find((e) => e.type === 'throttled')).toMatchObject({ waitMs: 15 * 60_000, capped: true });
    expect(paused.stub.requests).toHaveLength(1);

    const backingOff = await stopWhen((e) => e.type === 'retry', sequence({ status: 503 }), {
      retryBaseMs: 600_000,
    });
    await expect(backingOff.client.campaign('1')).rejects.toBe(STOPPED);
    expect(backingOff.stub.requests).toHaveLength(1);
  });

  it('sends nothing once stopped', async () => {
    const abort = new AbortController();
    abort.abort(STOPPED);
    const { stub, client } = await setup(sequence(OK), { signal: abort.signal });
    await expect(client.campaign('1')).rejects.toBe(STOPPED);
    expect(stub.requests).toHaveLength(0);
  });
});
