import { describe, expect, it } from 'vitest';
import { stubApiClients } from '../helpers/stub-api-client.js';
import type { StubScript } from '../helpers/stub-api-server.js';

const KEY = 'throttle-test-key-0123456789';
const setup = stubApiClients(KEY);

/** Timers may fire a little early; the pause must still hold everything until about `until`. */
const SLACK_MS = 5;

/** Retry-After values naming a moment about `ms` from now, in each of the four formats. */
const formats: [string, (until: number) => string][] = [
  ['ISO-8601', (until) => new Date(until).toISOString()],
  ['HTTP-date', (until) => new Date(Math.ceil(until / 1000) * 1000).toUTCString()],
  ['Unix epoch seconds', (until) => String(Math.ceil(until / 1000))],
  ['delta-seconds', () => '1'],
];

/** The moment a Retry-After value names, as the test (not the client) reads it. */
function untilOf(value: string): number {
  if (value === '1') return Date.now() + 1000;
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  return Date.parse(value);
}

describe('API client throttle', () => {
  it.each(formats)(
    'a 429 with a Retry-After as %s pauses every request until then',
    async (_name, format) => {
      let until = 0;
      let first = true;
      const { stub, client, events, setOnEvent } = await setup((req) => {
        if (first && req.path.endsWith('/a')) {
          first = false;
          const value = format(Date.now() + 300);
          until = untilOf(value);
          return {
            status: 429,
            headers: { 'Retry-After': value },
            body: { message: 'Service Overloaded', errors: {} },
          };
        }
        return { body: { hook: { hook_id: req.path.slice(-1) } } };
      });
      // A second request starts only once the 429 is known: it must wait for the pause too.
      let second: Promise<unknown> | undefined;
      setOnEvent((e) => {
        if (e.type === 'throttled') second = client.getHook('b');
      });
      await client.getHook('a');
      await second;
      expect(stub.requests.map((r) => r.path)).toHaveLength(3);
      for (const r of stub.requests.slice(1)) expect(r.at).toBeGreaterThanOrEqual(until - SLACK_MS);
      expect(client.stats.throttled).toBe(1);
      expect(events.find((e) => e.type === 'throttled')).toMatchObject({
        capped: false,
        requestId: 'req-1',
        kind: 'overload',
      });
      // One 429 that says nothing is no evidence that the rate is too high: it stays.
      expect(events.find((e) => e.type === 'rate')).toBeUndefined();
      expect(client.stats.rateRps).toBe(1000);
    },
  );

  it('caps a far-future Retry-After and reports it', async () => {
    let n = 0;
    const farFuture = () => new Date(Date.now() + 86_400_000).toISOString();
    const script: StubScript = () =>
      n++ === 0
        ? { status: 429, headers: { 'Retry-After': farFuture() } }
        : { body: { campaign: { id: '1' } } };
    const { client, events } = await setup(script, { maxRetryAfterMs: 50 });
    expect(await client.campaign('1')).toEqual({ id: '1' });
    expect(events.find((e) => e.type === 'throttled')).toMatchObject({ capped: true, waitMs: 50 });
    expect(client.stats.throttleWaitMs).toBe(50);
  });

  it('waits until RateLimit-Reset when RateLimit-Remaining is 0', async () => {
    let resetAt = 0;
    const { stub, client } = await setup((req) => {
      if (req.n === 1) {
        resetAt = Math.ceil(Date.now() / 1000) + 1;
        return {
          body: { campaign: { id: '1' } },
          headers: { 'RateLimit-Remaining': '0', 'RateLimit-Reset': String(resetAt) },
        };
      }
      return { body: { campaign: { id: '2' } } };
    });
    await client.campaign('1');
    await client.campaign('2');
    expect(stub.requests[1]!.at).toBeGreaterThanOrEqual(resetAt * 1000 - SLACK_MS);
    expect(client.stats.throttleWaitMs).toBeGreaterThan(0);
  });

  it('lowers its rate to an announced RateLimit-Limit', async () => {
    const { client, events } = await setup(() => ({
      body: { campaign: { id: '1' } },
      headers: { 'RateLimit-Limit': '20' },
    }));
    await client.campaign('1');
    expect(events.find((e) => e.type === 'rate')).toMatchObject({
      rps: 20,
      reason: expect.stringContaining('RateLimit-Limit'),
    });
  });

  it('never exceeds its concurrency', async () => {
    const { stub, client } = await setup(() => ({ delayMs: 20, body: { campaign: { id: '1' } } }), {
      concurrency: 2,
    });
    await Promise.all(Array.from({ length: 8 }, (_, i) => client.campaign(String(i))));
    expect(stub.requests).toHaveLength(8);
    expect(stub.maxInFlight).toBe(2);
  });
});
