/**
 * Fuzz: the sink's reading of a push body. The depth check, countDocuments and the signature
 * check take any bytes without throwing; a body they accept (JSON, a documents array, nested no
 * deeper than the limit) builds its rows (buildStreamBatch) without throwing, one per document,
 * each document stored as JSON text that parses.
 */
import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildStreamBatch } from '../../src/sink/build-stream-batch.js';
import { countDocuments } from '../../src/sink/count-documents.js';
import { hasSignatureHeader, verifySignature } from '../../src/sink/verify-signature.js';
import { jsonDepthExceeds, MAX_JSON_DEPTH } from '../../src/util/json-depth.js';
import { anyString, nestedText } from './bad-values.js';
import { FUZZ_TIMEOUT_MS, pureRuns } from './fuzz-params.js';
import { isWellFormed } from './is-well-formed.js';
import { pushBody } from './push-bodies.js';

const bodyBytes = fc.oneof(
  { weight: 4, arbitrary: pushBody.map((text) => Buffer.from(text)) },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 200 }).map((bytes) => Buffer.from(bytes)) },
);

// The sink's one warning per batch of repaired text (most generated bodies hold some): not wanted here.
process.env.CW_LOG_LEVEL = 'silent';

describe('fuzz: sink body', () => {
  it(
    'reads any body without throwing; one it accepts builds a row per document',
    () => {
      fc.assert(
        fc.property(bodyBytes, (body) => {
          const tooDeep = jsonDepthExceeds(body, MAX_JSON_DEPTH);
          expect(jsonDepthExceeds(body.toString('utf8'), MAX_JSON_DEPTH)).toBe(tooDeep);
          const documents = countDocuments(body);
          if (tooDeep || typeof documents !== 'number') return;
          const batch = buildStreamBatch(
            [
              {
                delivery_id: 1,
                hook_id: 'h1',
                received_at: '2026-11-20T08:00:00.000Z',
                body,
                bytes: body.length,
                documents,
              },
            ],
            {
              hooks: new Map([['h1', { searchId: 7, searchType: 'editorial' }]]),
              validator: () => undefined,
            },
            [],
          );
          expect(batch.documents).toHaveLength(documents);
          for (const row of batch.documents) {
            expect(typeof row.document_id === 'string' && row.document_id !== '').toBe(true);
            expect(() => JSON.parse(String(row.document))).not.toThrow();
            expect(isWellFormed(String(row.document))).toBe(true);
          }
        }),
        pureRuns(600),
      );
    },
    FUZZ_TIMEOUT_MS,
  );

  it(
    'finds a depth past the limit exactly where it is',
    () => {
      fc.assert(
        fc.property(
          fc.integer({ min: 0, max: 3000 }),
          fc.integer({ min: 1, max: 1000 }),
          fc.boolean(),
          (depth, limit, array) => {
            const text = nestedText(depth, array ? 'array' : 'object', '"]]}}\\\\\\""');
            expect(jsonDepthExceeds(text, limit)).toBe(depth > limit);
            expect(jsonDepthExceeds(Buffer.from(text), limit)).toBe(depth > limit);
          },
        ),
        pureRuns(300),
      );
    },
    FUZZ_TIMEOUT_MS,
  );

  it(
    'accepts exactly the signatures made with the secret over the bytes',
    () => {
      fc.assert(
        fc.property(
          anyString,
          fc.uint8Array({ maxLength: 64 }),
          fc.option(anyString, { nil: undefined }),
          fc.option(anyString, { nil: undefined }),
          fc.constantFrom('sha1', 'sha256'),
          (secret, bytes, sha1Header, sha256Header, algorithm) => {
            const body = Buffer.from(bytes);
            // Any header text: never a throw, never a match by chance.
            expect(verifySignature(secret, body, sha1Header, sha256Header)).toBe(false);
            expect(typeof hasSignatureHeader(sha1Header, sha256Header)).toBe('boolean');
            const good = `${algorithm}=${createHmac(algorithm, secret).update(body).digest('hex')}`;
            const [one, two] = algorithm === 'sha1' ? [good, undefined] : [undefined, good];
            expect(verifySignature(secret, body, one, two)).toBe(true);
            expect(verifySignature(`${secret}x`, body, one, two)).toBe(false);
            expect(verifySignature(secret, Buffer.concat([body, Buffer.from([0])]), one, two)).toBe(false);
          },
        ),
        pureRuns(500),
      );
    },
    FUZZ_TIMEOUT_MS,
  );
});
