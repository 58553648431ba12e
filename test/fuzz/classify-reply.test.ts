/**
 * Fuzz: the client's reading of a reply (classifyReply, then paginate) decides every reply,
 * whatever its status, headers and body, without throwing: a body it accepts is JSON nested no
 * deeper than MAX_JSON_DEPTH, its integers exact; pages of any items page or fail typed.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { classifyReply } from '../../src/api/classify-reply.js';
import { paginate } from '../../src/api/paginate.js';
import { MAX_JSON_DEPTH, valueDepthExceeds } from '../../src/util/json-depth.js';
import { stringifyExact } from '../../src/util/parse-json-exact.js';
import { anyString, deepText, jsonText, numberLiteral, scalarText } from './bad-values.js';
import { exactInteger } from './exact-number.js';
import { FUZZ_TIMEOUT_MS, pureRuns } from './fuzz-params.js';
import { unlessTypedError } from './typed-errors.js';

const body = fc.oneof(
  { weight: 4, arbitrary: jsonText },
  { weight: 1, arbitrary: anyString },
  { weight: 1, arbitrary: jsonText.map((text) => text.slice(0, Math.floor(text.length / 2))) },
  { weight: 1, arbitrary: deepText(MAX_JSON_DEPTH - 2, MAX_JSON_DEPTH + 2) },
  { weight: 1, arbitrary: deepText(1000, 20_000) },
  { weight: 1, arbitrary: fc.constantFrom('', ' ', '\n', '<html>502</html>', 'null', '"\\ud800"') },
);
const header = fc.option(
  fc.oneof(anyString, numberLiteral, fc.constantFrom('Thu, 01 Jan 2099 00:00:00 GMT')),
  {
    nil: undefined,
  },
);
const status = fc.oneof(
  fc.constantFrom(200, 201, 204, 400, 401, 403, 404, 409, 429, 500, 503),
  fc.integer({ min: 100, max: 599 }),
);

describe('fuzz: reply classifier', () => {
  it(
    'gives a verdict to any reply; what it accepts is bounded JSON',
    () => {
      fc.assert(
        fc.property(
          status,
          body,
          header,
          header,
          fc.constantFrom('GET /v3/influencers/campaigns', 'POST /v3/hooks'),
          (code, text, retryAfter, remaining, endpoint) => {
            const headers = {
              'retry-after': retryAfter,
              'ratelimit-remaining': remaining,
              'ratelimit-reset': retryAfter,
            };
            const verdict = classifyReply(
              { sentAt: 0, reply: { status: code, headers, text } },
              { endpoint, now: 1_800_000_000_000, maxRetryAfterMs: 900_000, backoffMs: () => 1000 },
            );
            expect(['success', 'retry', 'fatal', 'throttled']).toContain(verdict.type);
            if (verdict.type === 'throttled') expect(verdict.waitMs).toBeLessThanOrEqual(900_000);
            if (verdict.type === 'throttled') expect(verdict.waitMs).toBeGreaterThanOrEqual(0);
            if (verdict.type === 'fatal') expect(verdict.error.message).not.toContain('\n');
            if (verdict.type === 'success') {
              expect(valueDepthExceeds(verdict.reply.json)).toBe(false);
              expect(() => stringifyExact(verdict.reply.json)).not.toThrow();
            }
          },
        ),
        pureRuns(1000),
      );
    },
    FUZZ_TIMEOUT_MS,
  );

  it(
    'reads every integer literal exactly',
    () => {
      fc.assert(
        fc.property(numberLiteral, (literal) => {
          const verdict = classifyReply(
            { sentAt: 0, reply: { status: 200, headers: {}, text: `{"n":${literal}}` } },
            { endpoint: 'GET /v3/x', now: 0, maxRetryAfterMs: 1, backoffMs: () => 0 },
          );
          expect(verdict.type).toBe('success');
          if (verdict.type !== 'success') return;
          const n = (verdict.reply.json as { n: unknown }).n;
          if (/^-?\d+$/.test(literal)) expect(BigInt(n as number | bigint)).toBe(exactInteger(literal));
          else expect(n).toBe(Number(literal));
        }),
        pureRuns(1000),
      );
    },
    FUZZ_TIMEOUT_MS,
  );

  it(
    'pages any list of items, ids of any kind, or fails with a typed error',
    async () => {
      const item = fc.oneof(
        scalarText,
        jsonText,
        fc.constantFrom('{"id":{"toString":0}}', '{"id":[[{"valueOf":1}]]}', '{"id":null}', '{}'),
      );
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.array(item, { maxLength: 4 }), { minLength: 1, maxLength: 3 }),
          async (pages) => {
            const texts = pages.map(
              (items, i) => `{"page":${i + 1},"page_size":4,"total":12,"posts":[${items.join(',')}]}`,
            );
            const read = async () => {
              const out: unknown[] = [];
              const fetchPage = async (page: number) => JSON.parse(texts[page - 1] ?? '{"posts":[]}');
              for await (const records of paginate(fetchPage, 'GET /v3/x/posts', 'posts', 4))
                out.push(...records);
              return out;
            };
            const records = await unlessTypedError(read);
            for (const record of records ?? [])
              expect(typeof record === 'object' && record !== null).toBe(true);
          },
        ),
        pureRuns(500),
      );
    },
    FUZZ_TIMEOUT_MS,
  );
});
