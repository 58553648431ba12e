/** What classifyReply makes of a 2xx body's JSON: big integers exact, too deep refused in one line. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { classifyReply, type ReplyPolicy } from '../../src/api/classify-reply.js';
import { FatalApiError } from '../../src/api/errors.js';
import type { Attempt } from '../../src/api/send-attempt.js';
import { MAX_JSON_DEPTH } from '../../src/util/json-depth.js';

const policy: ReplyPolicy = {
  endpoint: 'GET /v3/influencers/campaigns/7/posts',
  now: 1_800_000_000_000,
  maxRetryAfterMs: 60_000,
  backoffMs: () => 123,
};

const reply = (text: string): Attempt => ({
  sentAt: 0,
  requestId: 'req-9',
  reply: { status: 200, headers: {}, text },
});

describe('classifyReply: the JSON of a 2xx', () => {
  it('keeps an integer beyond 2^53 exact (bigint), the rest as JSON.parse reads it', () => {
    const verdict = classifyReply(
      reply('{"posts":[{"id":"p1","engagement":9007199254740993,"emv":1.5}]}'),
      policy,
    );
    expect(verdict).toMatchObject({
      type: 'success',
      reply: { json: { posts: [{ id: 'p1', engagement: 9007199254740993n, emv: 1.5 }] } },
    });
  });

  it('refuses a reply nested deeper than the limit: fatal, one line naming the endpoint and the cause', () => {
    const deep = `{"posts":[{"id":"p1","stats":${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}}]}`;
    const verdict = classifyReply(reply(deep), policy);
    expect(verdict.type).toBe('fatal');
    const { error } = verdict as { error: FatalApiError };
    expect(error).toBeInstanceOf(FatalApiError);
    expect(error.message).toBe(
      `GET /v3/influencers/campaigns/7/posts: reply nested deeper than ${MAX_JSON_DEPTH} levels (X-Request-Id req-9)`,
    );
    expect(error).toMatchObject({ endpoint: policy.endpoint, status: 200, requestId: 'req-9' });
  });

  it('a deep error body only loses its details', () => {
    const deep = `${'['.repeat(10_000)}${']'.repeat(10_000)}`;
    const verdict = classifyReply({ sentAt: 0, reply: { status: 404, headers: {}, text: deep } }, policy);
    expect(verdict.type).toBe('fatal');
    expect((verdict as { error: FatalApiError }).error.message).toMatch(/^404 Not Found on GET/);
  });

  it('docs/api.md names the same limit', () => {
    const docs = readFileSync(join(__dirname, '..', '..', 'docs', 'api.md'), 'utf8');
    expect(docs).toContain(`reply nested deeper than ${MAX_JSON_DEPTH} levels`);
    expect(docs).toContain(`deeper than ${MAX_JSON_DEPTH} levels (none`);
  });
});
