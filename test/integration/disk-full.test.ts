/**
 * A full disk, for real: a small tmpfs holds the data directory and is filled to the last
 * byte. A sync (the built CLI) then fails saying "no space left on device" and naming the
 * data directory, not SQLite's "disk I/O error"; the runs table keeps that line; the sink
 * answers 503 and its log says the same, and its loader, unable to publish, sets no delivery
 * aside as quarantined (a full disk is no document's fault). Where a tmpfs cannot be mounted (not root), these
 * tests say so and do not run.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunningSimulator } from '../../src/simulator/start-simulator.js';
import { startSink } from '../../src/sink/start-sink.js';
import { Database } from '../../src/state/sqlite-database.js';
import { STATE_DB_FILE } from '../../src/state/state-db.js';
import { ensureBuiltCli } from '../helpers/built-cli.js';
import { loopbackSync, run } from '../helpers/run-cli.js';
import { deliveryBody, insertHook, postDelivery, sampleDocument } from '../helpers/sink-fixtures.js';
import { mountSmallTmpfs, type SmallTmpfs } from '../helpers/small-tmpfs.js';
import { SMALL, startSim } from '../helpers/sync-harness.js';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function tmpfs(size: string): SmallTmpfs | undefined {
  const mounted = mountSmallTmpfs(size);
  if (typeof mounted === 'string') {
    console.warn(`disk-full.test.ts did NOT run: ${mounted}`);
    return undefined;
  }
  cleanups.push(() => mounted.unmount());
  return mounted;
}

describe('a full disk', () => {
  it('fails a sync with "no space left on device" naming the data directory, also in the runs table', async (ctx) => {
    const fs = tmpfs('8m');
    if (!fs) return ctx.skip();
    ensureBuiltCli();
    const sim: RunningSimulator = await startSim({ size: { ...SMALL, campaigns: 2 } });
    cleanups.push(() => sim.close());
    const dataDir = join(fs.dir, 'data');
    const sync = (date: string) =>
      run(loopbackSync(sim.url, dataDir, '--snapshot-date', date), {
        CW_API_KEY: 'sim-key',
      });
    expect((await sync('2026-11-20')).code).toBe(0);
    const filler = fs.fill();
    const full = await sync('2026-11-21');
    expect(full.code).toBe(1);
    const line = full.stderr.trim().split('\n').at(-1)!;
    expect(line).toMatch(/^campaign-warehouse: no space left on device: the data directory /);
    expect(line).toContain(dataDir);
    expect(line).toContain('free some space, then run the sync again');

    // Space again: the next run succeeds, and the failed attempt's record names the cause.
    rmSync(filler);
    expect((await sync('2026-11-21')).code).toBe(0);
    const db = new Database(join(dataDir, STATE_DB_FILE), { readonly: true });
    try {
      const failed = db.prepare('select error from runs where error is not null').pluck().all() as string[];
      for (const error of failed) expect(error).toMatch(/no space left on device|database or disk is full/i);
    } finally {
      db.close();
    }
  });

  it('makes the sink answer 503 and log that the inbox cannot commit: no space left, naming the data directory', async (ctx) => {
    const fs = tmpfs('4m');
    if (!fs) return ctx.skip();
    const dataDir = join(fs.dir, 'data');
    const hook = insertHook(dataDir);
    let log = '';
    const logger = pino(
      { level: 'info' },
      new Writable({
        write(chunk, _encoding, done) {
          log += String(chunk);
          done();
        },
      }),
    );
    const sink = await startSink({ dataDir, port: 0, publishIntervalMs: 600_000, logger });
    cleanups.push(() => sink.close());
    const body = deliveryBody(hook, [sampleDocument('d1', { padding: 'x'.repeat(20_000) })]);
    expect(await postDelivery(sink.url, hook, body)).toBe(200);
    fs.fill();
    let status = 200;
    for (let i = 0; i < 20 && status === 200; i++) status = await postDelivery(sink.url, hook, body);
    expect(status).toBe(503);
    const failure = log
      .split('\n')
      .filter((l) => l.includes('sink: inbox commit failed'))
      .map((l) => JSON.parse(l) as { err: string })[0];
    expect(failure?.err).toMatch(/^no space left on device: the data directory /);
    expect(failure?.err).toContain(dataDir);
  });

  it('quarantines no delivery when the sink cannot publish for a full disk, and publishes them all once there is room', async (ctx) => {
    const fs = tmpfs('64m');
    if (!fs) return ctx.skip();
    const dataDir = join(fs.dir, 'data');
    const hook = insertHook(dataDir);
    const sink = await startSink({
      dataDir,
      port: 0,
      publishIntervalMs: 600_000,
      logger: pino({ level: 'silent' }),
    });
    cleanups.push(() => sink.close());
    for (const id of ['d1', 'd2', 'd3'])
      expect(await postDelivery(sink.url, hook, deliveryBody(hook, [sampleDocument(id)]))).toBe(200);
    const filler = fs.fill();
    await expect(sink.publishNow()).rejects.toThrow();
    expect(sink.stats()).toMatchObject({ backlog: 3, quarantined: 0 });
    rmSync(filler);
    expect(await sink.publishNow()).toMatchObject({ deliveries: 3, documents: 3 });
    expect(sink.stats()).toMatchObject({ backlog: 0, quarantined: 0 });
  });
});
