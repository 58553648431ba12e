/**
 * Two writers racing for the same commit: sink hosts, each with a data directory of its own,
 * commit their documents to one remote stream_documents. Both based on the same version, both
 * write v<N+1> with If-None-Match: *; moto lets one in and answers the other 412, which reads
 * the new version, applies its change on top of it and lands as v<N+2>. Neither loses the
 * other's files.
 */
import { beforeAll, describe, expect, it } from 'vitest';
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
import { motoMissing } from '../helpers/moto-server.js';
import { documentsBatch } from '../helpers/remote-batches.js';
import { rows, tempDataDir } from '../helpers/sync-harness.js';
import { withMoto } from '../helpers/with-moto.js';

const missing = motoMissing();
if (missing) console.warn(`remote-race: did not run: ${missing}`);

describe.skipIf(missing)('two writers racing for one commit', () => {
  const moto = withMoto();
  let store: S3Store;
  let remote: RemoteConfig;
  const hostA = tempDataDir();
  const hostB = tempDataDir();
  const today = new Date().toISOString().slice(0, 10);

  beforeAll(async () => {
    remote = moto.remote('race');
    store = await openStore(remote);
  });

  const documents = new TablePaths({ url: '', bucket: 'lake', prefix: 'race/' }, 'stream_documents');

  it('both land, the second after its retry, and the table holds both hosts’ documents', async () => {
    await publishStream(hostA, documentsBatch('a1', 3, `${today}T08:00:00Z`));
    await publishStream(hostB, documentsBatch('b1', 2, `${today}T08:00:01Z`));
    await commitRemote(hostA, remote);
    await commitRemote(hostB, remote);
    // Both hosts now know the same current version (B committed it; A reads it back).
    await commitRemote(hostA, remote, { verify: true });
    const base = await readRemoteTable(store, documents);

    await publishStream(hostA, documentsBatch('a2', 4, `${today}T09:00:00Z`));
    await publishStream(hostB, documentsBatch('b2', 5, `${today}T09:00:01Z`));
    const [a, b] = await Promise.all([commitRemote(hostA, remote), commitRemote(hostB, remote)]);
    const ofTable = (result: typeof a) => result.commits.find((c) => c.table === 'stream_documents')!;
    const commits = [ofTable(a), ofTable(b)].sort((x, y) => x.version - y.version);
    expect(commits.map((c) => c.version)).toEqual([base.version + 1, base.version + 2]);
    expect(commits.map((c) => c.attempts)).toEqual([1, 2]);

    const current = await readRemoteTable(store, documents);
    expect(current.version).toBe(base.version + 2);
    const snapshots = current.metadata!.snapshots;
    const last = snapshots.at(-1)!;
    const previous = snapshots.at(-2)!;
    expect(last['parent-snapshot-id']).toBe(previous['snapshot-id']);
    expect(previous['parent-snapshot-id']).toBe(current.metadata!.snapshots.at(-3)!['snapshot-id']);
    expect(last.summary.operation).toBe('append');
    const live = [...liveFiles(current.manifests).values()];
    const [localA] = await rows(hostA, 'select count(*) as n from stream_documents');
    const [localB] = await rows(hostB, 'select count(*) as n from stream_documents');
    expect(Number(localA!.n) + Number(localB!.n)).toBe(14);
    expect(live.reduce((n, e) => n + e.file.rows, 0)).toBe(14);
    expect(last.summary['total-records']).toBe('14');
  }, 240_000);

  it('a writer removes only its own files: a merge on one host leaves the other host’s parts', async () => {
    // Host A's parts merge with its new document (its own files replaced by one holding them
    // and more rows: an overwrite); host B's stay as they are.
    await publishStream(hostA, documentsBatch('a3', 1, `${today}T10:00:00Z`), { mergeFanout: 2 });
    const result = await commitRemote(hostA, remote);
    const commit = result.commits.find((c) => c.table === 'stream_documents')!;
    expect(commit.removedFiles).toBeGreaterThan(0);
    expect(commit.operation).toBe('overwrite');
    const current = await readRemoteTable(store, documents);
    const live = [...liveFiles(current.manifests).values()];
    expect(live.reduce((n, e) => n + e.file.rows, 0)).toBe(15);
    const writers = new Set(live.map((e) => /\/(w[0-9a-f]{12})-/.exec(e.file.path)![1]));
    expect(writers.size).toBe(2);
  }, 240_000);
});
