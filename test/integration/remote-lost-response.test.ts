/**
 * A lost response to the commit itself: the conditional PUT of `v<N+1>.metadata.json` reaches
 * the store, which writes it, and the connection is reset before the reply arrives (a proxy in
 * front of moto). The SDK retries the PUT and the store answers 412: the object is there, and
 * it is this writer's own. The commit must take it as landed (write version-hint.text, report
 * the commit), not as another writer's and not twice: the remote table then equals the local
 * one, by the hint as by the newest version, with no file listed twice.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { liveFiles } from '../../src/remote/commit-table.js';
import {
  commitRemote,
  openStore,
  type RemoteConfig,
  readRemoteTable,
  TablePaths,
} from '../../src/remote/index.js';
import type { S3Store } from '../../src/remote/s3-store.js';
import { publishStream } from '../../src/warehouse/index.js';
import { icebergRows, rowSet, withFetchTo } from '../helpers/iceberg-rows.js';
import { readSnapshotFiles } from '../helpers/iceberg-snapshot-files.js';
import { motoMissing } from '../helpers/moto-server.js';
import { documentsBatch } from '../helpers/remote-batches.js';
import { type FaultProxy, startFaultProxy } from '../helpers/s3-fault-proxy.js';
import { rows, tempDataDir } from '../helpers/sync-harness.js';
import { withMoto } from '../helpers/with-moto.js';

const missing = motoMissing();
if (missing) console.warn(`remote-lost-response: did not run: ${missing}`);

/** The commit's conditional write of a stream_documents metadata version. */
const COMMIT_PUT = /\/stream_documents\/metadata\/v\d+\.metadata\.json(\?|$)/;

describe.skipIf(missing)('the response to a commit lost on its way back', () => {
  const moto = withMoto({ publicRead: true });
  let proxy: FaultProxy;
  let store: S3Store;
  let viaProxy: RemoteConfig;
  const dataDir = tempDataDir();
  const today = new Date().toISOString().slice(0, 10);
  const paths = new TablePaths({ url: '', bucket: 'lake', prefix: 'lost/' }, 'stream_documents');

  beforeAll(async () => {
    proxy = await startFaultProxy(moto.url, () => 'pass');
    store = await openStore(moto.remote('lost'));
    viaProxy = { ...moto.remote('lost'), endpoint: proxy.url };
  });

  afterAll(async () => {
    await proxy?.close();
  });

  /** Loses the reply to the next commit PUT of stream_documents, once. */
  function loseNextCommitReply(): void {
    let lost = false;
    proxy.setFault((_n, request) => {
      if (lost || request.method !== 'PUT' || !COMMIT_PUT.test(request.path)) return 'pass';
      lost = true;
      return 'lose-response';
    });
  }

  async function expectRemoteEqualsLocal(version: number): Promise<void> {
    const table = await readRemoteTable(store, paths);
    expect(table.version).toBe(version);
    expect((await store.get(paths.hintKey))?.toString()).toBe(String(version));
    // No entry of any manifest names a live file twice.
    const entries = table.manifests.flatMap((m) => m.entries.filter((e) => e.status !== 2));
    expect(new Set(entries.map((e) => e.file.path)).size).toBe(entries.length);
    const [local] = await rows(dataDir, 'select count(*) as n from stream_documents');
    const live = [...liveFiles(table.manifests).values()];
    expect(live.reduce((n, e) => n + e.file.rows, 0)).toBe(Number(local!.n));
    // An independent reader by the hint and by the newest version: the same files, the local rows.
    for (const how of ['hint', 'newest'] as const) {
      const read = await readSnapshotFiles(moto.url, 's3://lake/lost/stream_documents', how);
      expect(read.version, how).toBe(version);
      expect(new Set(read.files.map((f) => f.path)).size, how).toBe(read.files.length);
      expect(
        read.files.reduce((n, f) => n + f.records, 0),
        how,
      ).toBe(Number(local!.n));
    }
    const localRows = await rows(dataDir, 'select * from stream_documents');
    const columns = Object.keys(localRows[0]!);
    const remoteRows = await withFetchTo(moto.url, () => icebergRows('s3://lake/lost/stream_documents'));
    expect(rowSet(remoteRows, columns)).toEqual(rowSet(localRows, columns));
  }

  it('an append whose reply was lost is taken as committed, once', async () => {
    await publishStream(dataDir, documentsBatch('l1', 3, `${today}T08:00:00Z`), { mergeFanout: 2 });
    await commitRemote(dataDir, viaProxy);
    await expectRemoteEqualsLocal(1);

    await publishStream(dataDir, documentsBatch('l2', 2, `${today}T09:00:00Z`), { mergeFanout: 2 });
    loseNextCommitReply();
    const result = await commitRemote(dataDir, viaProxy);
    proxy.setFault(() => 'pass');
    expect(proxy.counts.lost).toBe(1);
    const commit = result.commits.find((c) => c.table === 'stream_documents');
    expect(commit, 'the commit is reported').toBeDefined();
    expect(commit!.version).toBe(2);
    expect(commit!.addedFiles).toBeGreaterThan(0);
    await expectRemoteEqualsLocal(2);
  }, 240_000);

  it('an overwrite (parts merged) whose reply was lost is taken as committed, once', async () => {
    await publishStream(dataDir, documentsBatch('l3', 4, `${today}T10:00:00Z`), { mergeFanout: 2 });
    loseNextCommitReply();
    const lostBefore = proxy.counts.lost;
    const result = await commitRemote(dataDir, viaProxy);
    proxy.setFault(() => 'pass');
    expect(proxy.counts.lost).toBe(lostBefore + 1);
    const commit = result.commits.find((c) => c.table === 'stream_documents')!;
    expect(commit.version).toBe(3);
    expect(commit.removedFiles).toBeGreaterThan(0);
    await expectRemoteEqualsLocal(3);

    // The next commit steps on from there as usual.
    await publishStream(dataDir, documentsBatch('l4', 1, `${today}T11:00:00Z`), { mergeFanout: 2 });
    const next = await commitRemote(dataDir, viaProxy);
    expect(next.commits.find((c) => c.table === 'stream_documents')!.version).toBe(4);
    await expectRemoteEqualsLocal(4);
  }, 240_000);

  it('every write of a commit losing its first reply (uploads, manifests, list, metadata, hint) still commits once', async () => {
    await publishStream(dataDir, documentsBatch('l5', 2, `${today}T12:00:00Z`), { mergeFanout: 2 });
    const seen = new Set<string>();
    proxy.setFault((_n, request) => {
      if (request.method !== 'PUT' || !request.path.includes('/stream_documents/')) return 'pass';
      const key = request.path.split('?')[0]!;
      if (seen.has(key)) return 'pass';
      seen.add(key);
      return 'lose-response';
    });
    const lostBefore = proxy.counts.lost;
    const result = await commitRemote(dataDir, viaProxy);
    proxy.setFault(() => 'pass');
    // A data file, a manifest, the list, the metadata and the hint at least.
    expect(proxy.counts.lost - lostBefore).toBeGreaterThanOrEqual(5);
    const commit = result.commits.find((c) => c.table === 'stream_documents')!;
    expect(commit.version).toBe(5);
    expect(commit.attempts).toBe(1);
    await expectRemoteEqualsLocal(5);
  }, 240_000);
});
