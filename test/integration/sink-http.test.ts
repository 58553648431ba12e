import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hookPath } from '../../src/sink/hook-path.js';
import { type RunningSink, startSink } from '../../src/sink/start-sink.js';
import { eq } from '../../src/state/drizzle.js';
import { type InboxDb, openInboxDb } from '../../src/state/inbox-db.js';
import { hooks } from '../../src/state/schema.js';
import { openStateDb } from '../../src/state/state-db.js';
import {
  deliveryBody,
  insertHook,
  postDelivery,
  sampleDocument,
  signatureHeaders,
  type TestHook,
} from '../helpers/sink-fixtures.js';
import { rawPost } from '../helpers/sink-raw-request.js';
import { removableTempDir } from '../helpers/temp-dir.js';

const BODY_LIMIT = 4_096;

describe('sink HTTP answers', () => {
  const data = removableTempDir('cw-sink-');
  let sink: RunningSink;
  let inbox: InboxDb | undefined;
  let hook: TestHook;
  /** The sink's error log lines (JSON), to check what is said and that no secret is. */
  const errorLog: string[] = [];
  const logger = pino({ level: 'error' }, { write: (line: string) => errorLog.push(line) });
  const url = (h: TestHook): string => `${sink.url}${hookPath(h.pathToken)}`;
  const inboxRows = (): number => {
    const check = openInboxDb(data.dir);
    try {
      return (check.sqlite.prepare('select count(*) as n from deliveries').get() as { n: number }).n;
    } finally {
      check.close();
    }
  };

  beforeAll(async () => {
    hook = insertHook(data.dir);
    sink = await startSink({
      dataDir: data.dir,
      port: 0,
      bodyLimitBytes: BODY_LIMIT,
      publishIntervalMs: 600_000,
      inboxBusyTimeoutMs: 100,
      logger,
      openInbox: (dir) => {
        inbox = openInboxDb(dir);
        return inbox;
      },
    });
  });
  afterAll(async () => {
    await sink.close();
    data.remove();
  });

  it('200: a signed delivery is committed, then acknowledged with its delivery id', async () => {
    const body = deliveryBody(hook, [sampleDocument('d1'), sampleDocument('d2')]);
    const response = await fetch(url(hook), {
      method: 'POST',
      headers: { 'content-type': 'application/json; charset=utf-8', ...signatureHeaders(hook.secret, body) },
      body,
    });
    expect(response.status).toBe(200);
    const { delivery_id: id } = (await response.json()) as { delivery_id: number };
    const row = inbox?.sqlite
      .prepare('select hook_id, documents, bytes, body from deliveries where delivery_id = ?')
      .get(id);
    expect(row).toEqual({
      hook_id: hook.hookId,
      documents: 2,
      bytes: Buffer.byteLength(body),
      body: Buffer.from(body),
    });
  });

  it('200 with the strongest signature good: sha1 alone, or sha256 beside a bad sha1', async () => {
    const body = deliveryBody(hook, [sampleDocument('d3')]);
    const good = signatureHeaders(hook.secret, body);
    const other = signatureHeaders('not-the-hook-secret-but-32-chars', body);
    expect(
      await postDelivery(sink.url, hook, body, { 'x-hub-signature': good['x-hub-signature'] as string }),
    ).toBe(200);
    const sha256Only = deliveryBody(hook, [sampleDocument('d4')]);
    const signed = signatureHeaders(hook.secret, sha256Only);
    expect(
      await postDelivery(sink.url, hook, sha256Only, {
        'x-hub-signature': other['x-hub-signature'] as string,
        'x-hub-signature-256': signed['x-hub-signature-256'] as string,
      }),
    ).toBe(200);
  });

  it('401: missing or bad signatures (a bad sha256 beside a good sha1 too), and nothing is stored', async () => {
    const before = inboxRows();
    const body = deliveryBody(hook, [sampleDocument('forged')]);
    const good = signatureHeaders(hook.secret, body);
    const other = signatureHeaders('not-the-hook-secret-but-32-chars', body);
    expect(await postDelivery(sink.url, hook, body, {})).toBe(401);
    expect(
      await postDelivery(sink.url, hook, body, { 'x-hub-signature': other['x-hub-signature'] as string }),
    ).toBe(401);
    expect(
      await postDelivery(sink.url, hook, body, {
        'x-hub-signature': good['x-hub-signature'] as string,
        'x-hub-signature-256': other['x-hub-signature-256'] as string,
      }),
    ).toBe(401);
    // A signature of a different body (replayed header) is refused too.
    expect(await postDelivery(sink.url, hook, `${body} `, good)).toBe(401);
    expect(inboxRows()).toBe(before);
  });

  it('400 after a valid signature: invalid JSON, or no documents array', async () => {
    const invalid = '{"documents": [';
    expect(await postDelivery(sink.url, hook, invalid)).toBe(400);
    expect(await postDelivery(sink.url, hook, '{"request": {}, "documents": {"id": "x"}}')).toBe(400);
    expect(await postDelivery(sink.url, hook, 'null')).toBe(400);
  });

  it('400 is only given after the signature: an unsigned invalid body gets 401', async () => {
    expect(await postDelivery(sink.url, hook, '{"documents": [', {})).toBe(401);
  });

  it('404: unknown path token, deleted hook; a hook added while running works at once', async () => {
    const unknown = { ...hook, pathToken: 'no-such-token-aaaaaaaaaaaa' };
    const body = deliveryBody(hook, [sampleDocument('x')]);
    expect(await postDelivery(sink.url, unknown, body)).toBe(404);
    const added = insertHook(data.dir, { searchType: 'social' });
    const addedBody = deliveryBody(added, [sampleDocument('y')]);
    expect(await postDelivery(sink.url, added, addedBody)).toBe(200);
    const state = openStateDb(data.dir);
    state.db
      .update(hooks)
      .set({ deletedAt: '2026-11-22T00:00:00Z' })
      .where(eq(hooks.hookId, added.hookId))
      .run();
    state.close();
    expect(await postDelivery(sink.url, added, addedBody)).toBe(404);
    expect((await fetch(`${sink.url}/elsewhere`)).status).toBe(404);
  });

  it('405: another method on a hook path', async () => {
    const response = await fetch(url(hook));
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST');
    expect((await fetch(url(hook), { method: 'PUT', body: '{}' })).status).toBe(405);
  });

  it('415: a body that is not declared JSON', async () => {
    const body = deliveryBody(hook, [sampleDocument('t')]);
    const response = await fetch(url(hook), {
      method: 'POST',
      headers: { 'content-type': 'text/plain', ...signatureHeaders(hook.secret, body) },
      body,
    });
    expect(response.status).toBe(415);
  });

  it('413: a Content-Length over the limit is refused before any byte is sent', async () => {
    const { status, sentBytes } = await rawPost(
      url(hook),
      { 'content-type': 'application/json', 'content-length': BODY_LIMIT * 100 },
      'none',
    );
    expect(status).toBe(413);
    expect(sentBytes).toBe(0);
  });

  it('413: a chunked body is cut as soon as it crosses the limit', async () => {
    const { status, sentBytes } = await rawPost(
      url(hook),
      // A well-formed (if wrong) signature: without one the push is refused before any body byte.
      {
        'content-type': 'application/json',
        'transfer-encoding': 'chunked',
        'x-hub-signature-256': `sha256=${'0'.repeat(64)}`,
      },
      { count: 1_000, size: 1_024 },
    );
    expect(status).toBe(413);
    // The answer came long before the sender finished its 1 MB.
    expect(sentBytes).toBeLessThan(200 * 1_024);
  });

  it('503 when the inbox cannot commit, then 200 again once it can', async () => {
    const body = deliveryBody(hook, [sampleDocument('during-outage')]);
    // Another writer holds the inbox's write lock past the sink's busy timeout.
    const other = openInboxDb(data.dir);
    other.sqlite.exec('begin immediate');
    try {
      expect(await postDelivery(sink.url, hook, body)).toBe(503);
    } finally {
      other.sqlite.exec('rollback');
      other.close();
    }
    expect(await postDelivery(sink.url, hook, body)).toBe(200);
  });

  it('500 when a request fails unexpectedly: logged and counted, and the sink goes on', async () => {
    const body = deliveryBody(hook, [sampleDocument('registry-unreadable')]);
    // Another connection makes the hook registry unreadable under the running sink.
    const state = openStateDb(data.dir);
    try {
      state.sqlite.exec('alter table hooks rename to hooks_away');
      const response = await fetch(url(hook), {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...signatureHeaders(hook.secret, body) },
        body,
      });
      expect(response.status).toBe(500);
      expect(await response.json()).toEqual({ error: 'internal error' });
    } finally {
      state.sqlite.exec('alter table hooks_away rename to hooks');
      state.close();
    }
    const failure = errorLog.map((line) => JSON.parse(line)).find((l) => l.msg === 'sink: request failed');
    expect(failure).toMatchObject({ err: expect.stringContaining('no such table: hooks') });
    expect(errorLog.join('')).not.toContain(hook.secret);
    expect(await (await fetch(`${sink.url}/metrics`)).text()).toContain('sink_request_failures_total 1');
    expect(await postDelivery(sink.url, hook, body)).toBe(200);
  });

  it('GET /healthz reports the backlog; GET /metrics counts every outcome', async () => {
    const health = (await (await fetch(`${sink.url}/healthz`)).json()) as { status: string; backlog: number };
    expect(health.status).toBe('ok');
    expect(health.backlog).toBe(sink.stats().backlog);
    expect(health.backlog).toBeGreaterThanOrEqual(4);
    const metrics = await (await fetch(`${sink.url}/metrics`)).text();
    const outcomes = sink.stats().outcomes;
    for (const [outcome, count] of Object.entries(outcomes)) {
      expect(metrics).toContain(`sink_deliveries_total{outcome="${outcome}"} ${count}`);
    }
    expect(outcomes).toMatchObject({ bad_signature: 5, unknown_hook: 2, method_not_allowed: 2, not_json: 1 });
    expect(outcomes.too_large).toBe(2);
    expect(outcomes.inbox_unavailable).toBe(1);
    // Every answered hook request is timed, whatever its outcome.
    const answered = Object.values(outcomes).reduce((a, b) => a + b, 0);
    expect(metrics).toContain(`sink_answer_seconds_count ${answered}`);
    expect(metrics).toContain(`sink_answer_seconds_bucket{le="+Inf"} ${answered}`);
    expect(metrics).toContain(`sink_inbox_backlog ${health.backlog}`);
    expect(metrics).toMatch(/sink_publish_lag_seconds \d/);
  });
});
