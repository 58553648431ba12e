/**
 * Retention of the remote lake: snapshots older than the retention expire from the metadata;
 * the files only they referenced, and an object a crashed upload left behind, are deleted after
 * that, never before; a file a live snapshot references is never deleted. The commits' clock
 * is moved forward (the store's own clock stamps the objects' ages).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import { liveFiles } from '../../src/remote/commit-table.js';
import {
  commitRemote,
  openStore,
  type RemoteConfig,
  readRemoteTable,
  TablePaths,
} from '../../src/remote/index.js';
import { commitLockPath } from '../../src/remote/remote-state.js';
import type { S3Store } from '../../src/remote/s3-store.js';
import { withFileLock } from '../../src/state/with-file-lock.js';
import { publishStream } from '../../src/warehouse/index.js';
import { motoMissing } from '../helpers/moto-server.js';
import { documentsBatch } from '../helpers/remote-batches.js';
import { tempDataDir } from '../helpers/sync-harness.js';
import { withMoto } from '../helpers/with-moto.js';

const missing = motoMissing();
if (missing) console.warn(`remote-retention: did not run: ${missing}`);

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

describe.skipIf(missing)('retention of the remote lake', () => {
  const moto = withMoto();
  let store: S3Store;
  let remote: RemoteConfig;
  const dataDir = tempDataDir();
  const today = new Date().toISOString().slice(0, 10);
  const paths = new TablePaths({ url: '', bucket: 'lake', prefix: 'ret/' }, 'stream_documents');
  const strayKey = 'ret/stream_documents/data/w000000000000-crashed-upload.parquet';

  beforeAll(async () => {
    remote = moto.remote('ret', { retentionMs: DAY });
    store = await openStore(remote);
  });

  async function keys(): Promise<Set<string>> {
    return new Set((await store.list(paths.key)).map((o) => o.key));
  }

  /** Every object the table's current snapshot needs: its metadata, list, manifests and data files. */
  async function referenced(): Promise<string[]> {
    const table = await readRemoteTable(store, paths);
    const snapshot = table.metadata!.snapshots.find(
      (s) => s['snapshot-id'] === table.metadata!['current-snapshot-id'],
    )!;
    return [
      paths.versionKey(table.version),
      paths.keyOf(snapshot['manifest-list'])!,
      ...table.manifests.map((m) => paths.keyOf(m.file.path)!),
      ...[...liveFiles(table.manifests).keys()].map((uri) => paths.keyOf(uri)!),
    ];
  }

  it('expires old snapshots, then deletes what only they referenced and what a crash left', async () => {
    const t0 = Date.now();
    await publishStream(dataDir, documentsBatch('r1', 3, `${today}T08:00:00Z`));
    await commitRemote(dataDir, remote, { now: () => t0 });
    const first = await readRemoteTable(store, paths);
    const firstFiles = [...liveFiles(first.manifests).keys()].map((uri) => paths.keyOf(uri)!);
    const firstList = paths.keyOf(first.metadata!.snapshots[0]!['manifest-list'])!;

    await publishStream(dataDir, documentsBatch('r2', 2, `${today}T09:00:00Z`), { mergeFanout: 2 });
    const second = await commitRemote(dataDir, remote, { now: () => t0 + HOUR });
    expect(second.commits.find((c) => c.table === 'stream_documents')!.removedFiles).toBeGreaterThan(0);
    await store.putIfAbsent(strayKey, Buffer.from('PAR1 half an upload'));

    // Within the retention: the replaced file stays (the first snapshot still lists it), and
    // so does the stray object (it may be another writer's upload before its commit).
    const early = await commitRemote(dataDir, remote, { verify: true, now: () => t0 + 2 * HOUR });
    expect(early.deleted).toBe(0);
    const before = await keys();
    for (const key of [...firstFiles, firstList, strayKey]) expect(before.has(key), key).toBe(true);

    await publishStream(dataDir, documentsBatch('r3', 1, `${today}T10:00:00Z`));
    const late = await commitRemote(dataDir, remote, { now: () => t0 + 3 * DAY });
    const commit = late.commits.find((c) => c.table === 'stream_documents')!;
    expect(commit.expired.length).toBe(2);
    expect(late.deleted).toBeGreaterThan(0);

    const table = await readRemoteTable(store, paths);
    expect(table.metadata!.snapshots).toHaveLength(1);
    expect(table.metadata!['snapshot-log']).toHaveLength(1);
    expect(table.metadata!['metadata-log']).toEqual([]);
    const after = await keys();
    const gone = firstFiles.filter((key) => !after.has(key));
    expect(gone.length).toBeGreaterThan(0);
    expect(after.has(firstList)).toBe(false);
    expect(after.has(strayKey)).toBe(false);
    expect(after.has(paths.versionKey(1))).toBe(false);
    for (const key of await referenced()) expect(after.has(key), key).toBe(true);
    const rows = [...liveFiles(table.manifests).values()].reduce((n, e) => n + e.file.rows, 0);
    expect(rows).toBe(6);
  }, 240_000);

  it('a commit deletes the metadata files its metadata-log dropped, without waiting for a sweep', async () => {
    const MIN = 60_000;
    const short = moto.remote('meta', { retentionMs: 15 * MIN });
    const metaPaths = new TablePaths(short, 'stream_documents');
    const dir = tempDataDir();
    const t0 = Date.now();
    // Commits at 0, 5, 10 and 16 minutes (the sweep, due every retention, runs at 0 and 16),
    // then at 20 and 25: no sweep is due, yet v2 (written at 5) leaves the log at 25.
    for (const [i, minutes] of [0, 5, 10, 16, 20, 25].entries()) {
      await publishStream(dir, documentsBatch(`m${i}`, 1, `${today}T0${i}:00:00Z`));
      await commitRemote(dir, short, { now: () => t0 + minutes * MIN });
    }
    const table = await readRemoteTable(store, metaPaths);
    const logged = table.metadata!['metadata-log'].map((e) => metaPaths.keyOf(e['metadata-file']));
    expect(logged).not.toContain(metaPaths.versionKey(2));
    const versions = (await store.list(`${metaPaths.key}metadata/`))
      .map((o) => o.key)
      .filter((key) => key.endsWith('.metadata.json'));
    expect(versions).not.toContain(metaPaths.versionKey(2));
    expect(versions.sort()).toEqual([...logged, metaPaths.versionKey(table.version)].sort());
  }, 240_000);

  it("a data directory's commits take turns: one waits while another holds the commit lock", async () => {
    const dir = tempDataDir();
    const locked = moto.remote('lock');
    await publishStream(dir, documentsBatch('l1', 2, `${today}T08:00:00Z`));
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let holding!: () => void;
    const taken = new Promise<void>((resolve) => {
      holding = resolve;
    });
    // Another holder of this data directory's commit lock (in a real deployment, the sink's
    // loader while serve's sync commits).
    const other = withFileLock(
      commitLockPath(dir),
      async () => {
        holding();
        await held;
      },
      { timeoutMs: 60_000, what: 'test' },
    );
    await taken;
    let done = false;
    const commit = commitRemote(dir, locked).then((result) => {
      done = true;
      return result;
    });
    await sleep(1_500);
    expect(done).toBe(false);
    release();
    await other;
    const result = await commit;
    expect(result.commits.map((c) => c.table)).toContain('stream_documents');
  }, 120_000);
});
