import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { streamingSchema } from '../../src/simulator/hooks/streaming-schemas.js';
import { streamingSchemaPath } from '../../src/sink/schema-validators.js';
import { type RunningSink, startSink } from '../../src/sink/start-sink.js';
import { INBOX_DB_FILE } from '../../src/state/inbox-db.js';
import { Database } from '../../src/state/sqlite-database.js';
import { publishedPath, publishLockPath } from '../../src/warehouse/duckdb/warehouse-paths.js';
import { publishStream } from '../../src/warehouse/publish-stream.js';
import { queryReadOnly } from '../../src/warehouse/read/query-read-only.js';
import { deliveryBody, insertHook, postDelivery, sampleDocument } from '../helpers/sink-fixtures.js';
import { removableTempDir } from '../helpers/temp-dir.js';

const silent = pino({ level: 'silent' });
const READER_CHILD = new URL('../helpers/warehouse-reader-child.mjs', import.meta.url).pathname;
const LOCK_CHILD = new URL('../helpers/warehouse-lock-child.mjs', import.meta.url).pathname;
const CRASHING_LOADER = new URL('../helpers/crashing-loader-worker.mjs', import.meta.url).pathname;

async function count(dataDir: string, sql: string): Promise<number> {
  return Number((await queryReadOnly(dataDir, sql)).rows[0]?.[0]);
}

describe('sink loader', () => {
  let data: ReturnType<typeof removableTempDir>;
  let sink: RunningSink | undefined;
  beforeEach(() => {
    data = removableTempDir('cw-sink-');
  });
  afterEach(async () => {
    await sink?.close();
    sink = undefined;
    data.remove();
  });

  it('lands a delivery posted three times once per document, with every delivery and the hook (no secret)', async () => {
    const hook = insertHook(data.dir);
    sink = await startSink({ dataDir: data.dir, port: 0, publishIntervalMs: 600_000, logger: silent });
    const body = deliveryBody(hook, [sampleDocument('d1'), sampleDocument('d2'), sampleDocument('d1')]);
    for (let i = 0; i < 3; i++) expect(await postDelivery(sink.url, hook, body)).toBe(200);
    expect(await sink.publishNow()).toEqual({ deliveries: 3, documents: 9, publishes: 1 });
    // Once more, after a publish, and again: still one row per document.
    expect(await postDelivery(sink.url, hook, body)).toBe(200);
    await sink.publishNow();
    const docs = await queryReadOnly(
      data.dir,
      'select document_id, hook_id, search_id, search_type, source_name, title, valid_schema from stream_documents order by 1',
    );
    expect(docs.rows).toEqual([
      ['d1', hook.hookId, 7, 'editorial', 'Daily News', 'Title d1', null],
      ['d2', hook.hookId, 7, 'editorial', 'Daily News', 'Title d2', null],
    ]);
    expect(await count(data.dir, 'select count(*) from stream_deliveries where documents = 3')).toBe(4);
    const hooks = await queryReadOnly(data.dir, 'select * from hooks');
    expect(hooks.rows).toHaveLength(1);
    expect(hooks.columns).not.toContain('secret');
    expect(JSON.stringify(hooks.rows)).not.toContain(hook.secret);
    expect(hooks.rows[0]?.[hooks.columns.indexOf('status')]).toBe('ACTIVE');
    expect(sink.stats().backlog).toBe(0);
  });

  it('publishes on a thread of its own: the watermark moves while the event loop is held', async () => {
    const hook = insertHook(data.dir);
    sink = await startSink({ dataDir: data.dir, port: 0, publishIntervalMs: 600_000, logger: silent });
    expect(await postDelivery(sink.url, hook, deliveryBody(hook, [sampleDocument('threaded')]))).toBe(200);
    const inbox = new Database(join(data.dir, INBOX_DB_FILE), { readonly: true });
    try {
      const loadedThrough = inbox.prepare('select loaded_through from loader_progress where id = 1').pluck();
      const publishing = sink.publishNow();
      // Hold this thread without ever yielding to its event loop: an in-process loader could not
      // move the watermark now; the loader's thread does.
      const pause = new Int32Array(new SharedArrayBuffer(4));
      let moved = false;
      for (let waited = 0; !moved && waited < 60_000; waited += 50) {
        Atomics.wait(pause, 0, 0, 50);
        moved = Number(loadedThrough.get()) > 0;
      }
      expect(moved).toBe(true);
      expect(await publishing).toEqual({ deliveries: 1, documents: 1, publishes: 1 });
    } finally {
      inbox.close();
    }
    expect(
      await count(data.dir, "select count(*) from stream_documents where document_id = 'threaded'"),
    ).toBe(1);
  });

  it('starts its thread again when it dies, and then publishes everything acknowledged', async () => {
    const hook = insertHook(data.dir);
    sink = await startSink(
      { dataDir: data.dir, port: 0, publishIntervalMs: 600_000, logger: silent },
      { loaderWorker: CRASHING_LOADER },
    );
    expect(await postDelivery(sink.url, hook, deliveryBody(hook, [sampleDocument('before')]))).toBe(200);
    writeFileSync(join(data.dir, 'crash-loader'), '');
    await expect(sink.publishNow()).rejects.toThrow('sink: loader thread ended (exit code 3)');
    expect(sink.stats().publishFailures).toBe(1);
    // Acknowledgements go on while no loader runs.
    expect(await postDelivery(sink.url, hook, deliveryBody(hook, [sampleDocument('during')]))).toBe(200);
    expect(sink.stats().backlog).toBe(2);

    // A new thread starts a second later, from the inbox's watermark.
    let result: unknown;
    for (let waited = 0; result === undefined && waited < 30_000; waited += 100) {
      result = await sink.publishNow().catch(async (error: Error) => {
        expect(error.message).toBe('sink: the loader thread is not running');
        await sleep(100);
        return undefined;
      });
    }
    expect(result).toEqual({ deliveries: 2, documents: 2, publishes: 1 });
    expect(sink.stats()).toMatchObject({ backlog: 0, publishes: 1, publishFailures: 1 });
    const docs = await queryReadOnly(data.dir, 'select document_id from stream_documents order by 1');
    expect(docs.rows).toEqual([['before'], ['during']]);
    const metrics = await (await fetch(`${sink.url}/metrics`)).text();
    expect(metrics).toMatch(/^sink_publish_failures_total 1$/m);
  });

  it('closes while its thread is down, and the next start publishes what was kept', async () => {
    const hook = insertHook(data.dir);
    const options = { dataDir: data.dir, port: 0, publishIntervalMs: 600_000, logger: silent };
    const crashing = await startSink(options, { loaderWorker: CRASHING_LOADER });
    expect(await postDelivery(crashing.url, hook, deliveryBody(hook, [sampleDocument('kept')]))).toBe(200);
    writeFileSync(join(data.dir, 'crash-loader'), '');
    await expect(crashing.publishNow()).rejects.toThrow('sink: loader thread ended (exit code 3)');
    await crashing.close(); // within the second before the restart

    sink = await startSink(options);
    expect(sink.stats().backlog).toBe(1);
    expect(await sink.publishNow()).toEqual({ deliveries: 1, documents: 1, publishes: 1 });
    expect(await count(data.dir, "select count(*) from stream_documents where document_id = 'kept'")).toBe(1);
  });

  it('publishes by itself within the interval after an acknowledgement', async () => {
    const hook = insertHook(data.dir);
    sink = await startSink({ dataDir: data.dir, port: 0, publishIntervalMs: 300, logger: silent });
    expect(await postDelivery(sink.url, hook, deliveryBody(hook, [sampleDocument('fresh')]))).toBe(200);
    for (let i = 0; i < 200 && sink.stats().publishes === 0; i++) await sleep(50);
    expect(sink.stats().publishes).toBe(1);
    expect(await count(data.dir, "select count(*) from stream_documents where document_id = 'fresh'")).toBe(
      1,
    );
    expect(sink.stats().backlog).toBe(0);
  });

  it('keeps the inbox when a publish fails, counts it, and retries', async () => {
    const hook = insertHook(data.dir);
    let calls = 0;
    sink = await startSink(
      { dataDir: data.dir, port: 0, publishIntervalMs: 200, logger: silent },
      {
        publish: async (dir, batch) => {
          calls += 1;
          if (calls === 1) throw new Error('simulated DuckDB failure');
          return publishStream(dir, batch);
        },
      },
    );
    expect(await postDelivery(sink.url, hook, deliveryBody(hook, [sampleDocument('retried')]))).toBe(200);
    for (let i = 0; i < 200 && sink.stats().publishes === 0; i++) await sleep(50);
    expect(sink.stats()).toMatchObject({ publishFailures: 1, publishes: 1, backlog: 0 });
    expect(await count(data.dir, 'select count(*) from stream_documents')).toBe(1);
    const metrics = await (await fetch(`${sink.url}/metrics`)).text();
    expect(metrics).toContain('sink_publish_failures_total 1');
  });

  it('flags documents that do not match the stored schema, and keeps them', async () => {
    const editorial = insertHook(data.dir, { searchType: 'editorial' });
    const broadcast = insertHook(data.dir, { searchType: 'broadcast', searchId: 9 });
    mkdirSync(`${data.dir}/schemas`, { recursive: true });
    writeFileSync(streamingSchemaPath(data.dir, 'editorial'), JSON.stringify(streamingSchema('editorial')));
    sink = await startSink({ dataDir: data.dir, port: 0, publishIntervalMs: 600_000, logger: silent });
    const invalid = { ...sampleDocument('bad'), language: 'English', url: 17 };
    expect(
      await postDelivery(sink.url, editorial, deliveryBody(editorial, [sampleDocument('good'), invalid])),
    ).toBe(200);
    expect(
      await postDelivery(sink.url, broadcast, deliveryBody(broadcast, [sampleDocument('no-schema')])),
    ).toBe(200);
    await sink.publishNow();
    const rows = await queryReadOnly(
      data.dir,
      'select document_id, valid_schema, url from stream_documents order by 1',
    );
    expect(rows.rows).toEqual([
      ['bad', false, null],
      ['good', true, 'https://news.example/good'],
      ['no-schema', null, 'https://news.example/no-schema'],
    ]);
  });

  it('publishes while a reader process holds the published file open, which sees it without reopening', async () => {
    const hook = insertHook(data.dir);
    sink = await startSink({ dataDir: data.dir, port: 0, publishIntervalMs: 600_000, logger: silent });
    expect(await postDelivery(sink.url, hook, deliveryBody(hook, [sampleDocument('a')]))).toBe(200);
    await sink.publishNow();
    const reader = spawn(process.execPath, [READER_CHILD, 'hold', publishedPath(data.dir)], {
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    const lines = createInterface({ input: reader.stdout })[Symbol.asyncIterator]();
    try {
      expect(JSON.parse(String((await lines.next()).value))).toEqual({ docs: 1, announced: 1 });
      expect(
        await postDelivery(sink.url, hook, deliveryBody(hook, [sampleDocument('b'), sampleDocument('c')])),
      ).toBe(200);
      expect(await sink.publishNow()).toMatchObject({ deliveries: 1, documents: 2 });
      reader.stdin.write('query\n');
      // The views read the lake: the held connection sees the publish at its next query.
      expect(JSON.parse(String((await lines.next()).value))).toEqual({ docs: 3, announced: 3 });
      expect(await count(data.dir, 'select count(*) from stream_documents')).toBe(3);
    } finally {
      reader.stdin.write('exit\n');
      await new Promise((resolve) => reader.once('exit', resolve));
    }
    expect(reader.exitCode).toBe(0);
  });

  it('keeps acknowledging while another process (a sync) holds the publish lock, then publishes', async () => {
    const hook = insertHook(data.dir);
    sink = await startSink({ dataDir: data.dir, port: 0, publishIntervalMs: 600_000, logger: silent });
    const locker = spawn(process.execPath, [LOCK_CHILD, publishLockPath(data.dir), '1500'], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const lines = createInterface({ input: locker.stdout })[Symbol.asyncIterator]();
    expect((await lines.next()).value).toBe('locked');
    expect(await postDelivery(sink.url, hook, deliveryBody(hook, [sampleDocument('before')]))).toBe(200);
    const publishing = sink.publishNow();
    // The publish waits for the lock; acknowledgements do not.
    for (let i = 0; i < 10; i++) {
      expect(await postDelivery(sink.url, hook, deliveryBody(hook, [sampleDocument(`during-${i}`)]))).toBe(
        200,
      );
    }
    expect(sink.stats().publishes).toBe(0);
    expect((await lines.next()).value).toBe('released');
    expect(await publishing).toMatchObject({ publishes: 1 });
    await sink.publishNow();
    expect(await count(data.dir, 'select count(*) from stream_documents')).toBe(11);
  });
});
