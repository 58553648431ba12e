/**
 * Issue 38 item 2: one bad document must never stall the sink. A body nested 100,000 deep is
 * refused before it is acknowledged (400, one line, nothing stored); a delivery already in the
 * inbox that cannot be published (left by an older release, or failing the publish itself) is
 * set aside as quarantined, shown by `status`, /metrics and a notification, and the deliveries
 * behind it are published. All through a real sink on loopback, its loader thread, real SQLite
 * and DuckDB files, the built CLI, and a webhook receiver on loopback.
 */
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pino from 'pino';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Notifier } from '../../src/notify/notifier.js';
import { createPoster } from '../../src/notify/post-with-retry.js';
import { hookPath } from '../../src/sink/hook-path.js';
import { InboxQuarantine } from '../../src/sink/inbox-quarantine.js';
import { type RunningSink, startSink } from '../../src/sink/start-sink.js';
import { INBOX_DB_FILE, openInboxDb } from '../../src/state/inbox-db.js';
import { Database } from '../../src/state/sqlite-database.js';
import { queryReadOnly } from '../../src/warehouse/read/query-read-only.js';
import { ensureBuiltCli } from '../helpers/built-cli.js';
import { lines, run } from '../helpers/run-cli.js';
import {
  deliveryBody,
  insertHook,
  postDelivery,
  sampleDocument,
  signatureHeaders,
  type TestHook,
} from '../helpers/sink-fixtures.js';
import { removableTempDir } from '../helpers/temp-dir.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';

const DEEP = 100_000;

/** The tests that run the built CLI several times: each run is a process start, slow on a loaded machine. */
const CLI_TEST_TIMEOUT_MS = 240_000;

/** A delivery whose one document is an array nested DEEP levels: valid JSON, which JSON.parse reads. */
function deepBody(hook: TestHook): string {
  const document = `${'['.repeat(DEEP)}${']'.repeat(DEEP)}`;
  return `{"request":{"hook_id":"${hook.hookId}","search_id":${hook.searchId}},"documents":[${document}]}`;
}

async function documentIds(dataDir: string): Promise<string[]> {
  const result = await queryReadOnly(dataDir, 'select document_id from stream_documents order by 1');
  return result.rows.map(([id]) => String(id));
}

function inboxRows(
  dataDir: string,
): { delivery_id: number; quarantined_at: string | null; reason: string | null }[] {
  const db = new Database(join(dataDir, INBOX_DB_FILE), { readonly: true });
  try {
    return db
      .prepare(
        'select delivery_id, quarantined_at, quarantine_reason as reason from deliveries order by delivery_id',
      )
      .all() as { delivery_id: number; quarantined_at: string | null; reason: string | null }[];
  } finally {
    db.close();
  }
}

/** Puts `body` straight into the inbox, as an older release (or a crash before its checks) could have left it. */
function insertDelivery(dataDir: string, hook: TestHook, body: string): void {
  const inbox = openInboxDb(dataDir);
  try {
    const bytes = Buffer.from(body);
    inbox.sqlite
      .prepare('insert into deliveries (hook_id, received_at, body, bytes, documents) values (?, ?, ?, ?, 1)')
      .run(hook.hookId, new Date().toISOString(), bytes, bytes.length);
  } finally {
    inbox.close();
  }
}

async function metric(sink: RunningSink, name: string): Promise<number> {
  const text = await (await fetch(`${sink.url}/metrics`)).text();
  return Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1]);
}

// The built CLI (status, sink quarantine), rebuilt first when the sources are newer.
beforeAll(() => {
  ensureBuiltCli();
}, 300_000);

describe('one bad document never stalls the sink', () => {
  let data: ReturnType<typeof removableTempDir>;
  const closers: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const close of closers.splice(0).reverse()) await close();
    data.remove();
  });

  async function sinkOf(options: { notifier?: Notifier } = {}) {
    const sink = await startSink({
      dataDir: data.dir,
      port: 0,
      publishIntervalMs: 600_000,
      logger: pino({ level: 'silent' }),
      ...(options.notifier ? { notify: { notifier: options.notifier, everyMs: 600_000 } } : {}),
    });
    closers.push(() => sink.close());
    return { sink };
  }

  it('refuses a signed body nested 100,000 deep with 400 and one line, stores nothing, and publishes what follows', async () => {
    data = removableTempDir('cw-sink-');
    const hook = insertHook(data.dir);
    const { sink } = await sinkOf();
    const body = deepBody(hook);
    const response = await fetch(`${sink.url}${hookPath(hook.pathToken)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...signatureHeaders(hook.secret, body) },
      body,
    });
    expect(response.status).toBe(400);
    const answer = await response.text();
    expect(answer.split('\n')).toHaveLength(1);
    expect(JSON.parse(answer)).toEqual({
      error: 'body nests arrays and objects deeper than the limit of 128 levels',
    });
    expect(inboxRows(data.dir)).toEqual([]);
    expect(sink.stats().outcomes.too_deep).toBe(1);

    for (const id of ['after-1', 'after-2'])
      expect(await postDelivery(sink.url, hook, deliveryBody(hook, [sampleDocument(id)]))).toBe(200);
    expect(await sink.publishNow()).toEqual({ deliveries: 2, documents: 2, publishes: 1 });
    expect(await documentIds(data.dir)).toEqual(['after-1', 'after-2']);
  });

  it(
    'takes --depth-limit on the command line, and refuses one out of bounds in one line before starting',
    async () => {
      data = removableTempDir('cw-sink-');
      for (const [value, line] of [
        ['5000', 'campaign-warehouse: --depth-limit must be an integer 2..1000, got "5000"'],
        ['deep', 'campaign-warehouse: --depth-limit must be an integer 2..1000, got "deep"'],
      ] as const) {
        const refused = await run(['sink', '--depth-limit', value, '--data-dir', data.dir]);
        expect(refused.code).toBe(2);
        expect(refused.stderr).toBe(`${line}\n`);
      }
    },
    CLI_TEST_TIMEOUT_MS,
  );

  it(
    'quarantines a delivery already in the inbox that cannot be built, says so everywhere, and publishes the ones behind it',
    async () => {
      data = removableTempDir('cw-sink-');
      const hook = insertHook(data.dir);
      insertDelivery(data.dir, hook, deepBody(hook));
      const receiver: WebhookReceiver = await startWebhookReceiver();
      closers.push(() => receiver.close());
      const notifier = new Notifier({
        config: { webhooks: [{ url: `${receiver.url}/json`, format: 'json' }], staleAfterHours: 36 },
        dataDir: data.dir,
        logger: pino({ level: 'silent' }),
        poster: createPoster({ minRetryMs: 10, attemptTimeoutMs: 2_000, totalMs: 5_000 }),
      });
      closers.push(() => notifier.close(1_000));
      const { sink } = await sinkOf({ notifier });
      for (const id of ['behind-1', 'behind-2'])
        expect(await postDelivery(sink.url, hook, deliveryBody(hook, [sampleDocument(id)]))).toBe(200);

      expect(await sink.publishNow()).toEqual({ deliveries: 2, documents: 2, publishes: 1 });
      expect(await documentIds(data.dir)).toEqual(['behind-1', 'behind-2']);
      const [poisoned, ...rest] = inboxRows(data.dir);
      expect(poisoned).toMatchObject({ delivery_id: 1, reason: 'Maximum call stack size exceeded' });
      expect(poisoned?.quarantined_at).not.toBeNull();
      expect(rest.map((r) => r.quarantined_at)).toEqual([null, null]);
      expect(sink.stats()).toMatchObject({ backlog: 0, quarantined: 1 });
      expect(await metric(sink, 'sink_quarantined_deliveries')).toBe(1);
      expect(await metric(sink, 'sink_inbox_backlog')).toBe(0);
      expect(await (await fetch(`${sink.url}/healthz`)).json()).toMatchObject({ backlog: 0, quarantined: 1 });

      // A later cycle publishes nothing again and keeps it aside: no failure, no retry loop.
      expect(await sink.publishNow()).toEqual({ deliveries: 0, documents: 0, publishes: 0 });
      expect(sink.stats().publishFailures).toBe(0);

      sink.checkHealthNow();
      await notifier.settled();
      expect(receiver.messages()).toEqual([
        expect.objectContaining({
          event: 'delivery_quarantined',
          severity: 'warning',
          resolved: false,
          details: { quarantined: 1 },
        }),
      ]);

      // What an operator sees and does, with the built CLI beside the running sink.
      const status = await run(['status', '--data-dir', data.dir]);
      expect(status.code).toBe(0);
      expect(lines(status.stdout)).toContain(
        'inbox: 1 delivery quarantined (acknowledged, not publishable, kept): see `campaign-warehouse sink quarantine list`',
      );
      const listed = await run(['sink', 'quarantine', 'list', '--data-dir', data.dir]);
      expect(listed.code).toBe(0);
      expect(lines(listed.stdout)).toEqual([
        expect.stringMatching(
          new RegExp(
            `^delivery 1  hook ${hook.hookId}  received \\S+  1 documents, ${deepBody(hook).length} bytes  quarantined \\S+: Maximum call stack size exceeded$`,
          ),
        ),
      ]);
      const shown = await run(['sink', 'quarantine', 'show', '1', '--data-dir', data.dir]);
      expect(shown.stdout).toBe(deepBody(hook));
      const missing = await run(['sink', 'quarantine', 'drop', '2', '--data-dir', data.dir]);
      expect(missing.code).toBe(2);
      expect(missing.stderr.trim()).toBe(
        'campaign-warehouse: delivery 2 is not quarantined (see `campaign-warehouse sink quarantine list`)',
      );
      const dropped = await run(['sink', 'quarantine', 'drop', '1', '--data-dir', data.dir]);
      expect(dropped.stdout).toBe('delivery 1 dropped\n');
      expect(inboxRows(data.dir).map((r) => r.delivery_id)).toEqual([2, 3]);
      expect(await metric(sink, 'sink_quarantined_deliveries')).toBe(0);
      sink.checkHealthNow();
      await notifier.settled();
      expect(receiver.messages().slice(1)).toEqual([
        expect.objectContaining({ event: 'delivery_quarantined', resolved: true }),
      ]);
    },
    CLI_TEST_TIMEOUT_MS,
  );

  it(
    'finds the one acknowledged delivery that fails the publish itself, sets it aside, publishes the rest, and re-queues it on request',
    async () => {
      data = removableTempDir('cw-sink-');
      const hook = insertHook(data.dir);
      const { sink } = await sinkOf();
      // Valid JSON, within every pre-acknowledgement check: a date five digits long parses in
      // JavaScript, and the warehouse's TIMESTAMP column refuses the text it becomes.
      const poison = sampleDocument('far-future', { published_date: '+010000-01-01T00:00:00Z' });
      const ids = ['g1', 'g2', 'g3', 'far-future', 'g5', 'g6', 'g7'];
      for (const id of ids) {
        const document = id === 'far-future' ? poison : sampleDocument(id);
        expect(await postDelivery(sink.url, hook, deliveryBody(hook, [document]))).toBe(200);
      }

      expect(await sink.publishNow()).toMatchObject({ deliveries: 6, documents: 6 });
      expect(await documentIds(data.dir)).toEqual(['g1', 'g2', 'g3', 'g5', 'g6', 'g7']);
      const quarantined = inboxRows(data.dir).filter((r) => r.quarantined_at !== null);
      expect(quarantined).toEqual([expect.objectContaining({ delivery_id: 4 })]);
      expect(quarantined[0]?.reason).toMatch(/TIMESTAMP/);
      expect(sink.stats()).toMatchObject({ backlog: 0, quarantined: 1, publishFailures: 0 });

      // Re-queued, it is a new delivery at the end of the inbox, and fails (alone) again.
      const retried = await run(['sink', 'quarantine', 'retry', '4', '--data-dir', data.dir]);
      expect(retried.stdout).toBe('delivery 4 re-queued as delivery 8\n');
      expect(sink.stats()).toMatchObject({ backlog: 1, quarantined: 0 });
      expect(await postDelivery(sink.url, hook, deliveryBody(hook, [sampleDocument('g9')]))).toBe(200);
      expect(await sink.publishNow()).toMatchObject({ deliveries: 1, documents: 1 });
      expect(inboxRows(data.dir).filter((r) => r.quarantined_at !== null)).toEqual([
        expect.objectContaining({ delivery_id: 8 }),
      ]);
      expect(await documentIds(data.dir)).toEqual(['g1', 'g2', 'g3', 'g5', 'g6', 'g7', 'g9']);
    },
    CLI_TEST_TIMEOUT_MS,
  );
  it('publishes a delivery re-queued while the sink is idle, without waiting for another delivery', async () => {
    data = removableTempDir('cw-sink-');
    const hook = insertHook(data.dir);
    insertDelivery(data.dir, hook, deliveryBody(hook, [sampleDocument('set-aside')]));
    const inbox = openInboxDb(data.dir);
    closers.push(async () => inbox.close());
    const quarantine = new InboxQuarantine(inbox);
    // As a loader of this release would have left it: acknowledged, then set aside.
    expect(quarantine.set(1, new Error('a publish failed'))).toBe(true);
    const sink = await startSink({
      dataDir: data.dir,
      port: 0,
      publishIntervalMs: 1_000,
      logger: pino({ level: 'silent' }),
    });
    closers.push(() => sink.close());
    expect(sink.stats()).toMatchObject({ backlog: 0, quarantined: 1 });

    // What `sink quarantine retry 1` does, from another connection to the inbox.
    expect(quarantine.requeue(1)).toBe(2);
    let published: string[] = [];
    for (let i = 0; i < 600 && !published.length; i++) {
      await sleep(100);
      if (sink.stats().backlog === 0) published = await documentIds(data.dir).catch(() => []);
    }
    expect(published).toEqual(['set-aside']);
    expect(sink.stats()).toMatchObject({ backlog: 0, quarantined: 0 });
  });
});
