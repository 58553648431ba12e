/**
 * Fuzz: generated push bodies, signed with the hook's secret, through a real sink on loopback
 * (its HTTP checks, durable inbox and loader thread). Each body is answered 200 when it is JSON
 * with a documents array nested no deeper than the limit, else 400, never anything else; every
 * acknowledged delivery publishes (none quarantined) and the published documents read back
 * through DuckDB as valid, well-formed JSON. Few cases: each publishes.
 */
import fc from 'fast-check';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countDocuments } from '../../src/sink/count-documents.js';
import { type RunningSink, startSink } from '../../src/sink/start-sink.js';
import { jsonDepthExceeds, MAX_JSON_DEPTH } from '../../src/util/json-depth.js';
import { withReadOnly } from '../../src/warehouse/read/query-read-only.js';
import { insertHook, postDelivery, type TestHook } from '../helpers/sink-fixtures.js';
import { removableTempDir } from '../helpers/temp-dir.js';
import { FUZZ_TIMEOUT_MS, publishRuns } from './fuzz-params.js';
import { isWellFormed } from './is-well-formed.js';
import { pushBody } from './push-bodies.js';

describe('fuzz: pushes through the sink', () => {
  const data = removableTempDir('cw-fuzz-sink-');
  let sink: RunningSink;
  let hook: TestHook;
  beforeAll(async () => {
    // The loader thread's warning per publish of repaired text (most generated bodies hold some): not wanted here.
    process.env.CW_LOG_LEVEL = 'silent';
    hook = insertHook(data.dir);
    sink = await startSink({
      dataDir: data.dir,
      port: 0,
      publishIntervalMs: 600_000,
      logger: pino({ level: 'silent' }),
    });
  });
  afterAll(async () => {
    await sink?.close();
    data.remove();
  });

  it(
    'acknowledges exactly the bodies it can publish, publishes them all, and they read back',
    async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(pushBody, { minLength: 1, maxLength: 3 }), async (bodies) => {
          let accepted = 0;
          for (const body of bodies) {
            const bytes = Buffer.from(body);
            const publishable =
              !jsonDepthExceeds(bytes, MAX_JSON_DEPTH) && typeof countDocuments(bytes) === 'number';
            const status = await postDelivery(sink.url, hook, body);
            expect(status, body.slice(0, 200)).toBe(publishable ? 200 : 400);
            if (publishable) accepted++;
          }
          const loaded = await sink.publishNow();
          expect(loaded.deliveries).toBe(accepted);
          expect(sink.stats().quarantined).toBe(0);
          await withReadOnly(data.dir, async (query) => {
            const bad = await query('select count(*) from stream_documents where not json_valid(document)');
            expect(bad.rows[0]![0]).toBe(0);
            const all = await query('select *, document::json as parsed from stream_documents');
            for (const row of all.rows)
              for (const value of row) if (typeof value === 'string') expect(isWellFormed(value)).toBe(true);
          });
        }),
        publishRuns(5),
      );
    },
    FUZZ_TIMEOUT_MS,
  );
});
