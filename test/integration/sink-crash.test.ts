import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Agent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hookPath } from '../../src/sink/hook-path.js';
import { STATE_DB_FILE } from '../../src/state/state-db.js';
import { BUILT_CLI } from '../../src/util/built-cli.js';
import { queryReadOnly } from '../../src/warehouse/read/query-read-only.js';
import { ensureBuiltCli } from '../helpers/built-cli.js';
import { firstReleaseDb } from '../helpers/first-release-db.js';
import { spawnSinkCli } from '../helpers/sink-child.js';
import {
  deliveryBody,
  insertHook,
  sampleDocument,
  signatureHeaders,
  type TestHook,
} from '../helpers/sink-fixtures.js';
import { removableTempDir } from '../helpers/temp-dir.js';

const SENDERS = 32;

/**
 * `SENDERS` concurrent senders post one-document deliveries (ids `<prefix>-<sender>-<n>`) until
 * `stop()` is true or the sink goes away; returns the ids of documents acknowledged with 200
 * (added to `acknowledged` as they come).
 */
async function sendUntil(
  baseUrl: string,
  hook: TestHook,
  prefix: string,
  stop: () => boolean,
  acknowledged: string[] = [],
): Promise<string[]> {
  const dispatcher = new Agent({ connections: SENDERS });
  const sender = async (s: number): Promise<void> => {
    for (let n = 0; !stop(); n++) {
      const id = `${prefix}-${s}-${n}`;
      const body = deliveryBody(hook, [sampleDocument(id)]);
      try {
        const response = await fetch(`${baseUrl}${hookPath(hook.pathToken)}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...signatureHeaders(hook.secret, body) },
          body,
          // @ts-expect-error undici's dispatcher option of Node's fetch
          dispatcher,
        });
        await response.arrayBuffer();
        if (response.status === 200) acknowledged.push(id);
      } catch {
        return; // the sink is gone
      }
    }
  };
  await Promise.all(Array.from({ length: SENDERS }, (_, s) => sender(s)));
  await dispatcher.close().catch(() => undefined);
  return acknowledged;
}

async function documentIds(dataDir: string): Promise<Set<string>> {
  const result = await queryReadOnly(dataDir, 'select document_id from stream_documents');
  return new Set(result.rows.map((row) => String(row[0])));
}

describe('sink process: kill -9 and SIGTERM', () => {
  const data = removableTempDir('cw-sink-');
  let hook: TestHook;
  beforeAll(async () => {
    // Built once by the global setup: rebuilding here rewrote dist/ under other test files'
    // child processes (a demo's loader thread once loaded a half-written module).
    ensureBuiltCli();
    hook = insertHook(data.dir);
  }, 240_000);
  afterAll(() => data.remove());

  it('loses no acknowledged document when killed with SIGKILL under load', async () => {
    const first = await spawnSinkCli(data.dir, ['--publish-interval', '0.5']);
    let killed = false;
    const acks: string[] = [];
    const sending = sendUntil(first.url, hook, 'k', () => killed, acks);
    // Let acknowledgements and a few publishes happen, then kill mid-stream (however slow the machine).
    await sleep(1_500);
    while (acks.length <= 50) await sleep(10);
    first.process.kill('SIGKILL');
    killed = true;
    const acknowledged = await sending;
    expect(await first.exited).toBeNull();
    expect(acknowledged.length).toBeGreaterThan(50);

    // Restarted, the sink publishes the backlog at once; SIGTERM flushes whatever is left.
    const second = await spawnSinkCli(data.dir, ['--publish-interval', '3600']);
    second.process.kill('SIGTERM');
    expect(await second.exited).toBe(0);
    const stored = await documentIds(data.dir);
    const lost = acknowledged.filter((id) => !stored.has(id));
    expect(lost).toEqual([]);
    const dupes = await queryReadOnly(
      data.dir,
      'select count(*) from (select hook_id, document_id from stream_documents group by all having count(*) > 1)',
    );
    expect(Number(dupes.rows[0]?.[0])).toBe(0);
  });

  it('on SIGTERM finishes in-flight deliveries, publishes them and exits 0', async () => {
    const sink = await spawnSinkCli(data.dir, ['--publish-interval', '3600']);
    let stopped = false;
    const sending = sendUntil(sink.url, hook, 't', () => stopped);
    await sleep(500);
    sink.process.kill('SIGTERM');
    const code = await sink.exited;
    stopped = true;
    const acknowledged = await sending;
    expect(code).toBe(0);
    expect(acknowledged.length).toBeGreaterThan(0);
    const stored = await documentIds(data.dir);
    expect(acknowledged.filter((id) => !stored.has(id))).toEqual([]);
    expect(sink.stderr()).toContain('sink: stopped');
  });

  it('on SIGINT while starting (its state upgrade waiting for another writer) stops, exit 0', async () => {
    const fresh = removableTempDir('cw-sink-');
    // The test holds the write lock of a first-release state file: the sink's start waits in
    // its upgrade until the lock is released, after the signal was sent.
    const holder = firstReleaseDb(join(fresh.dir, STATE_DB_FILE), 'state');
    holder.exec('begin immediate');
    const child = spawn(process.execPath, [BUILT_CLI, 'sink', '--port', '0', '--data-dir', fresh.dir], {
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, CW_LOG_LEVEL: 'info' },
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    let log = '';
    try {
      await new Promise<void>((resolve, reject) => {
        child.stderr.on('data', (chunk: Buffer) => {
          log += chunk.toString();
          if (log.includes('"msg":"sink: starting"')) resolve();
        });
        exited.then(() => reject(new Error(`sink exited before starting: ${log}`)));
      });
      child.kill('SIGINT');
    } finally {
      holder.exec('rollback');
      holder.close();
    }
    expect(await exited).toBe(0);
    expect(log).toContain('sink: stopped');
    expect(log).not.toContain('sink: listening');
    fresh.remove();
  });
});
