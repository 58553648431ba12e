/**
 * Inbox migration 0001: the loader's per-delivery loaded_at became one watermark. An inbox
 * written before it upgrades in place: what was published stays published, what was not is
 * published next, and published deliveries past the retention are pruned oldest first.
 * Inbox migration 0002 (the quarantine's columns): `status` reads an inbox from before it as
 * it is, and the sink upgrades it at its start.
 */
import { join } from 'node:path';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { statusReport } from '../../src/cli/status-report.js';
import { type RunningSink, startSink } from '../../src/sink/start-sink.js';
import { INBOX_DB_FILE } from '../../src/state/inbox-db.js';
import { Database } from '../../src/state/sqlite-database.js';
import { queryReadOnly } from '../../src/warehouse/read/query-read-only.js';
import { firstReleaseDb } from '../helpers/first-release-db.js';
import { deliveryBody, insertHook, sampleDocument } from '../helpers/sink-fixtures.js';
import { removableTempDir } from '../helpers/temp-dir.js';

const DAY_MS = 24 * 3_600_000;

describe('inbox upgrade to the loader watermark', () => {
  let data: ReturnType<typeof removableTempDir>;
  let sink: RunningSink | undefined;
  afterEach(async () => {
    await sink?.close();
    sink = undefined;
    data.remove();
  });

  it('keeps what was published, publishes the rest, and prunes old published deliveries', async () => {
    data = removableTempDir('cw-sink-');
    const hook = insertHook(data.dir);
    const old = new Date(Date.now() - 10 * DAY_MS).toISOString();
    const recent = new Date().toISOString();
    const loadedAt = new Date(Date.now() - 9 * DAY_MS).toISOString();
    const inbox = firstReleaseDb(join(data.dir, INBOX_DB_FILE), 'inbox');
    const insert = inbox.prepare(
      'insert into deliveries (hook_id, received_at, body, bytes, documents, loaded_at) values (?, ?, ?, ?, 1, ?)',
    );
    // 1-3 published ten days ago (as the old loader marked them), 4-5 acknowledged, not yet.
    const rows: [string, string | null][] = [
      ['old-1', loadedAt],
      ['old-2', loadedAt],
      ['old-3', loadedAt],
      ['new-4', null],
      ['new-5', null],
    ];
    for (const [id, at] of rows) {
      const body = Buffer.from(deliveryBody(hook, [sampleDocument(id)]));
      insert.run(hook.hookId, at === null ? recent : old, body, body.length, at);
    }
    inbox.close();

    sink = await startSink({
      dataDir: data.dir,
      port: 0,
      publishIntervalMs: 600_000,
      logger: pino({ level: 'silent' }),
    });
    expect((await statusReport(data.dir)).inbox).toMatchObject({ backlog: 2, lastPublish: loadedAt });
    expect(await sink.publishNow()).toEqual({ deliveries: 2, documents: 2, publishes: 1 });

    const docs = await queryReadOnly(data.dir, 'select document_id from stream_documents order by 1');
    expect(docs.rows).toEqual([['new-4'], ['new-5']]);
    await sink.close();
    sink = undefined;
    const after = await statusReport(data.dir);
    expect(after.inbox.backlog).toBe(0);
    expect(after.inbox.lastPublish! > loadedAt).toBe(true);
    // The three published ten days ago are past the 7-day retention: pruned; the others kept.
    const left = new Database(join(data.dir, INBOX_DB_FILE), { readonly: true });
    try {
      expect(left.prepare('select delivery_id from deliveries order by 1').pluck().all()).toEqual([4, 5]);
      expect(left.prepare('select loaded_through from loader_progress').pluck().get()).toBe(5);
      // The first release's index of pending deliveries is gone; the quarantine's (0002) is there.
      const indexes = left.prepare(
        "select name from sqlite_master where type = 'index' and tbl_name = 'deliveries'",
      );
      expect(indexes.all()).toEqual([{ name: 'deliveries_quarantined_idx' }]);
    } finally {
      left.close();
    }
  });
  it('reads an inbox from before the quarantine as it is, and upgrades it at the sink start (inbox migration 0002)', async () => {
    data = removableTempDir('cw-sink-');
    const hook = insertHook(data.dir);
    const inbox = firstReleaseDb(join(data.dir, INBOX_DB_FILE), 'inbox', '0001_loader_watermark');
    const body = Buffer.from(deliveryBody(hook, [sampleDocument('kept-1')]));
    inbox
      .prepare('insert into deliveries (hook_id, received_at, body, bytes, documents) values (?, ?, ?, ?, 1)')
      .run(hook.hookId, new Date().toISOString(), body, body.length);
    inbox.close();

    // status only reads: the older inbox has no quarantine, and says it is older.
    const before = await statusReport(data.dir);
    expect(before.inbox).toMatchObject({ backlog: 1, quarantined: 0 });
    expect(before.olderSchema).toEqual([INBOX_DB_FILE]);

    sink = await startSink({
      dataDir: data.dir,
      port: 0,
      publishIntervalMs: 600_000,
      logger: pino({ level: 'silent' }),
    });
    expect(sink.stats()).toMatchObject({ backlog: 1, quarantined: 0 });
    expect(await sink.publishNow()).toEqual({ deliveries: 1, documents: 1, publishes: 1 });
    await sink.close();
    sink = undefined;
    const after = await statusReport(data.dir);
    expect(after.inbox).toMatchObject({ backlog: 0, quarantined: 0 });
    expect(after.olderSchema).toEqual([]);
  });
});
