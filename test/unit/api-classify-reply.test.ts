import { describe, expect, it } from 'vitest';
import { classifyReply, type ReplyPolicy } from '../../src/api/classify-reply.js';
import { FatalApiError } from '../../src/api/errors.js';
import type { Attempt } from '../../src/api/send-attempt.js';
import { Throttle } from '../../src/api/throttle/throttle.js';
import { VirtualClock } from '../helpers/virtual-clock.js';

const now = 1_800_000_000_000;
const policy: ReplyPolicy = {
  endpoint: 'GET /v3/influencers/campaigns/7',
  now,
  maxRetryAfterMs: 60_000,
  backoffMs: () => 123,
};

function reply(status: number, text: string, headers: Record<string, string> = {}): Attempt {
  return { sentAt: 0, requestId: 'req-9', reply: { status, headers, text } };
}

describe('classifyReply', () => {
  it('a 2xx with JSON (or no body) is a success carrying the parsed body', () => {
    expect(classifyReply(reply(200, '{"campaign":{"id":"7"}}'), policy)).toMatchObject({
      type: 'success',
      reply: { status: 200, json: { campaign: { id: '7' } } },
      limits: {},
    });
    expect(classifyReply(reply(204, ''), policy)).toMatchObject({
      type: 'success',
      reply: { json: undefined },
    });
  });

  it('a 2xx whose body is not JSON, a 5xx, a failed connection or body read are retried with their reason', () => {
    expect(classifyReply(reply(200, '{"campaign": '), policy)).toMatchObject({
      type: 'retry',
      status: 200,
      reason: '200 OK with a body that is not valid JSON',
    });
    expect(classifyReply(reply(503, ''), policy)).toMatchObject({
      type: 'retry',
      status: 503,
      reason: '503 Service Unavailable',
    });
    const reset = new Error('other side closed');
    expect(classifyReply({ sentAt: 0, error: reset }, policy)).toEqual({
      type: 'retry',
      reason: 'connection failed (other side closed)',
    });
    expect(classifyReply({ sentAt: 0, error: reset, status: 200 }, policy)).toEqual({
      type: 'retry',
      status: 200,
      reason: '200 OK body read failed (other side closed)',
    });
  });

  it('an empty 2xx body to a GET is retried as a truncated one, saying "empty body"; a DELETE may have none', () => {
    for (const text of ['', ' \r\n'])
      expect(classifyReply(reply(200, text), policy)).toMatchObject({
        type: 'retry',
        status: 200,
        reason: '200 OK with an empty body',
      });
    const remove = { ...policy, endpoint: 'DELETE /v3/hooks/h1' };
    expect(classifyReply(reply(200, ''), remove)).toMatchObject({
      type: 'success',
      reply: { json: undefined },
    });
  });

  it('a 4xx or an untrusted certificate is fatal, with a one-line error', () => {
    const notFound = classifyReply(reply(404, '{"errors":[]}'), policy);
    expect(notFound.type).toBe('fatal');
    const error = (notFound as { error: FatalApiError }).error;
    expect(error).toBeInstanceOf(FatalApiError);
    expect(error.message).toBe(
      '404 Not Found on GET /v3/influencers/campaigns/7 (X-Request-Id req-9): no such campaign',
    );
    const untrusted = Object.assign(new Error('self-signed certificate'), {
      code: 'DEPTH_ZERO_SELF_SIGNED_CERT',
    });
    const tls = classifyReply({ sentAt: 0, error: untrusted }, policy);
    expect(tls.type).toBe('fatal');
    expect((tls as { error: FatalApiError }).error.message).toMatch(
      /TLS certificate not trusted .*DEPTH_ZERO/,
    );
  });

  it('a 429 is throttled with the wait it asks (capped), or the backoff without one, and its RateLimit-* headers', () => {
    expect(classifyReply(reply(429, '', { 'retry-after': '2', 'ratelimit-remaining': '3' }), policy)).toEqual(
      { type: 'throttled', waitMs: 2000, capped: false, limits: { remaining: 3 } },
    );
    expect(classifyReply(reply(429, '', { 'retry-after': String(now / 1000 + 3600) }), policy)).toEqual({
      type: 'throttled',
      waitMs: 60_000,
      capped: true,
      limits: {},
    });
    expect(classifyReply(reply(429, ''), policy)).toEqual({
      type: 'throttled',
      waitMs: 123,
      capped: false,
      limits: {},
    });
  });

  it('RateLimit-Remaining 0 on a reply that is not a 429 asks every request to pause', () => {
    const verdict = classifyReply(
      reply(200, '{}', {
        'ratelimit-limit': '10',
        'ratelimit-remaining': '0',
        'ratelimit-reset': String(now / 1000 + 1),
      }),
      policy,
    );
    expect(verdict).toMatchObject({ type: 'success', limits: { limitRps: 10, remaining: 0 }, pauseMs: 100 });
  });
});

describe('Throttle.settle', () => {
  it('weighs a 429 as overload or the rate limit by what RateLimit-Remaining said', () => {
    const clock = new VirtualClock();
    const throttle = new Throttle(10, 1, undefined, clock);
    const throttled = (limits: { remaining?: number }) =>
      ({ type: 'throttled', waitMs: 100, capped: false, limits }) as const;
    expect(throttle.settle(throttled({}), clock.now())).toBe('overload');
    expect(throttle.settle(throttled({ remaining: 2 }), clock.now())).toBe('overload');
    expect(throttle.settle(throttled({ remaining: 0 }), clock.now())).toBe('rate-limit');
    expect(throttle.settle({ type: 'retry' }, clock.now())).toBeUndefined();
  });
});
