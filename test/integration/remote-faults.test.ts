/**
 * When object storage fails (docs/remote.md): `remote push` (the built CLI) through a proxy in
 * front of moto that answers 503 SlowDown and resets connections: the SDK's own retries carry
 * the commit through; when the faults persist, one line (bucket, host, S3 code), exit 1, the
 * local lake untouched, and the next push catches up. A dead endpoint and a missing bucket
 * fail in one line too. A push killed with SIGKILL at several moments leaves every table at a
 * committed snapshot, and a final push converges on the local lake. The secret key never
 * appears in any output.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, type RemoteConfig, readRemoteTable, TablePaths } from '../../src/remote/index.js';
import type { S3Store } from '../../src/remote/s3-store.js';
import { describeLakeFiles, publishStream } from '../../src/warehouse/index.js';
import { freePort } from '../helpers/free-port.js';
import { icebergRows, rowSet, withFetchTo } from '../helpers/iceberg-rows.js';
import { motoMissing } from '../helpers/moto-server.js';
import { documentsBatch } from '../helpers/remote-batches.js';
import { lines, run, spawnCli } from '../helpers/run-cli.js';
import { type FaultProxy, startFaultProxy } from '../helpers/s3-fault-proxy.js';
import { rows, tempDataDir } from '../helpers/sync-harness.js';
import { withMoto } from '../helpers/with-moto.js';

const missing = motoMissing();
if (missing) console.warn(`remote-faults: did not run: ${missing}`);

/** Credentials moto accepts; the secret is distinctive so that a leak is found by grep. */
const SECRET = 'faultTestSecretKey/9f3bQx7Lm2Zw';
const CREDENTIALS = {
  AWS_ACCESS_KEY_ID: 'AKIAFAULTTEST',
  AWS_SECRET_ACCESS_KEY: SECRET,
  AWS_REGION: 'us-east-1',
};

describe.skipIf(missing)('remote push when object storage fails', () => {
  const moto = withMoto({ publicRead: true });
  let proxy: FaultProxy;
  let store: S3Store;
  const today = new Date().toISOString().slice(0, 10);
  let batch = 0;
  const outputs: string[] = [];

  /** The CLI's environment: requests through the proxy, fewer attempts than the default to keep the test short. */
  const env = (endpoint: string, extra: NodeJS.ProcessEnv = {}) => ({
    ...CREDENTIALS,
    AWS_ENDPOINT_URL_S3: endpoint,
    AWS_MAX_ATTEMPTS: '6',
    ...extra,
  });

  async function push(dataDir: string, url: string, endpoint: string, extra: NodeJS.ProcessEnv = {}) {
    const result = await run(
      ['remote', 'push', '--data-dir', dataDir, '--remote', url],
      env(endpoint, extra),
      {
        timeoutMs: 240_000,
      },
    );
    outputs.push(result.stdout, result.stderr);
    return result;
  }

  async function publish(dataDir: string, count = 3): Promise<void> {
    batch += 1;
    const at = `${today}T${String(8 + (batch % 12)).padStart(2, '0')}:00:${String(batch % 60).padStart(2, '0')}Z`;
    await publishStream(dataDir, documentsBatch(`f${batch}`, count, at));
  }

  /** Each table's remote rows (icebird, by version-hint) against the local table's. */
  async function expectConverged(dataDir: string, prefix: string): Promise<void> {
    for (const { table } of await describeLakeFiles(dataDir)) {
      const local = await rows(dataDir, `select * from ${table.name}`);
      if (local.length === 0) continue;
      const columns = Object.keys(local[0]!);
      const remoteRows = await withFetchTo(moto.url, () => icebergRows(`s3://lake/${prefix}/${table.name}`));
      expect(rowSet(remoteRows, columns), table.name).toEqual(rowSet(local, columns));
    }
  }

  /** Every table's current metadata and manifests read whole: each table is at a committed snapshot. */
  async function expectCommitted(dataDir: string, prefix: string): Promise<void> {
    const remote: RemoteConfig = { url: `s3://lake/${prefix}`, bucket: 'lake', prefix: `${prefix}/` };
    for (const { table } of await describeLakeFiles(dataDir)) {
      const found = await readRemoteTable(store, new TablePaths(remote, table.name));
      if (found.version === 0) continue;
      expect(found.metadata!['current-snapshot-id'], table.name).toBeDefined();
      const hint = await store.get(new TablePaths(remote, table.name).hintKey);
      if (hint) expect(Number(hint.toString()), table.name).toBeLessThanOrEqual(found.version);
    }
  }

  beforeAll(async () => {
    store = await openStore(moto.remote(''));
    proxy = await startFaultProxy(moto.url, () => 'pass');
  });

  afterAll(async () => {
    await proxy?.close();
    // No output of any run here carried the secret key.
    for (const output of outputs) expect(output).not.toContain(SECRET);
  });

  it('retries through 503 SlowDown and connection resets, and the commit lands', async () => {
    const dataDir = tempDataDir();
    for (let i = 0; i < 3; i += 1) await publish(dataDir);
    // Every third request fails, never twice in a row, so the SDK's retries win: one failure in five
    // is a SlowDown, the rest resets (the SDK waits about a second before retrying a throttled
    // request, 50 ms before a reset one).
    proxy.setFault((n) => (n % 15 === 0 ? 'slowdown' : n % 3 === 0 ? 'reset' : 'pass'));
    const before = { ...proxy.counts };
    const result = await push(dataDir, 's3://lake/flaky', proxy.url);
    proxy.setFault(() => 'pass');
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(lines(result.stdout).at(-1)).toMatch(/^remote s3:\/\/lake\/flaky: \d+ tables committed/);
    expect(proxy.counts.slowdown).toBeGreaterThan(before.slowdown);
    expect(proxy.counts.reset).toBeGreaterThan(before.reset);
    await expectConverged(dataDir, 'flaky');
  }, 300_000);

  it('when the faults persist: one line, exit 1, the local lake stands, and the next push catches up', async () => {
    const dataDir = tempDataDir();
    await publish(dataDir);
    const localBefore = await rows(dataDir, 'select count(*) as n from stream_documents');
    proxy.setFault(() => 'slowdown');
    // Two attempts: the outcome of persisting faults does not depend on how many the SDK makes.
    const throttled = await push(dataDir, 's3://lake/throttled', proxy.url, { AWS_MAX_ATTEMPTS: '2' });
    expect(throttled.code).toBe(1);
    expect(lines(throttled.stderr)).toHaveLength(1);
    expect(throttled.stderr).toMatch(/s3:\/\/lake at 127\.0\.0\.1:\d+: SlowDown \(HTTP 503\)/);
    expect(await rows(dataDir, 'select count(*) as n from stream_documents')).toEqual(localBefore);

    proxy.setFault(() => 'reset');
    const reset = await push(dataDir, 's3://lake/throttled', proxy.url, { AWS_MAX_ATTEMPTS: '2' });
    expect(reset.code).toBe(1);
    expect(lines(reset.stderr)).toHaveLength(1);
    expect(reset.stderr).toMatch(/s3:\/\/lake at 127\.0\.0\.1:\d+: (ECONNRESET|EPIPE)/);

    proxy.setFault(() => 'pass');
    await publish(dataDir);
    const caughtUp = await push(dataDir, 's3://lake/throttled', proxy.url);
    expect(caughtUp.stderr).toBe('');
    expect(caughtUp.code).toBe(0);
    await expectConverged(dataDir, 'throttled');
  }, 300_000);

  it('a dead endpoint: one line naming the bucket, the host and the error, exit 1', async () => {
    const dataDir = tempDataDir();
    await publish(dataDir);
    const localBefore = await rows(dataDir, 'select count(*) as n from stream_documents');
    const port = await freePort();
    const result = await push(dataDir, 's3://lake/dead', `http://127.0.0.1:${port}`, {
      AWS_MAX_ATTEMPTS: '3',
    });
    expect(result.code).toBe(1);
    expect(lines(result.stderr)).toHaveLength(1);
    expect(result.stderr).toMatch(new RegExp(`s3://lake at 127\\.0\\.0\\.1:${port}: ECONNREFUSED`));
    expect(await rows(dataDir, 'select count(*) as n from stream_documents')).toEqual(localBefore);
  }, 120_000);

  it('a missing bucket: one line naming the bucket and NoSuchBucket, exit 1', async () => {
    const dataDir = tempDataDir();
    await publish(dataDir);
    const result = await push(dataDir, 's3://no-such-lake/x', moto.url);
    expect(result.code).toBe(1);
    expect(lines(result.stderr)).toHaveLength(1);
    expect(result.stderr).toMatch(/s3:\/\/no-such-lake at 127\.0\.0\.1:\d+: NoSuchBucket \(HTTP 404\)/);
  }, 120_000);

  it('SIGKILL at several moments leaves committed snapshots, and a final push converges', async () => {
    const dataDir = tempDataDir();
    for (let i = 0; i < 4; i += 1) await publish(dataDir, 20);
    for (const delayMs of [150, 400, 800, 1300, 2000]) {
      await publish(dataDir, 5);
      const child = spawnCli(
        ['remote', 'push', '--data-dir', dataDir, '--remote', 's3://lake/killed'],
        env(moto.url),
      );
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      child.process.kill('SIGKILL');
      await child.exited;
      outputs.push(child.stdout(), child.stderr());
      await expectCommitted(dataDir, 'killed');
    }
    const final = await push(dataDir, 's3://lake/killed', moto.url);
    expect(final.stderr).toBe('');
    expect(final.code).toBe(0);
    await expectCommitted(dataDir, 'killed');
    await expectConverged(dataDir, 'killed');
  }, 400_000);
});
