/**
 * A publish's remote commit looks only at what the publish changed: the lake's links that moved
 * since this data directory's last commit (a stream day, a table's own link). A day whose link
 * did not move is not read at all (here its version folder is hidden during the commit); a
 * moved day's files are diffed against that day's entries only, so other days and other
 * writers' files stay; and a state that is stale (saved before the last commit) or from an
 * earlier release (no links recorded) still converges on the local lake.
 */
import { readdirSync, readFileSync, readlinkSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
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
import { describeLakeFiles, publishStream } from '../../src/warehouse/index.js';
import { motoMissing } from '../helpers/moto-server.js';
import { documentsBatch } from '../helpers/remote-batches.js';
import { tempDataDir } from '../helpers/sync-harness.js';
import { withMoto } from '../helpers/with-moto.js';

const missing = motoMissing();
if (missing) console.warn(`remote-commit-follows-change: did not run: ${missing}`);

const STREAM_TABLES = ['stream_documents', 'stream_deliveries'];

describe.skipIf(missing)("the remote commit follows the publish's change", () => {
  const moto = withMoto();
  let store: S3Store;
  let remote: RemoteConfig;
  const dataDir = tempDataDir();
  const other = tempDataDir();

  beforeAll(async () => {
    remote = moto.remote('follow');
    store = await openStore(remote);
  });

  const writerOf = (dir: string) => readFileSync(join(dir, 'remote', 'writer-id'), 'utf8').trim();
  const statePath = () => {
    const found = readdirSync(join(dataDir, 'remote')).find((n) => /^state-[0-9a-f]+\.json$/.test(n));
    if (!found) throw new Error('no state file');
    return join(dataDir, 'remote', found);
  };

  /** The version folders of a day's links (of both stream tables), renamed away and back. */
  function hideDay(day: string): () => void {
    const moved = STREAM_TABLES.map((table) => {
      const link = join(dataDir, 'lake', table, `received_date=${day}`);
      const target = resolve(dirname(link), readlinkSync(link));
      renameSync(target, `${target}.hidden`);
      return target;
    });
    return () => {
      for (const target of moved) renameSync(`${target}.hidden`, target);
    };
  }

  /** Every table: `dir`'s files in the remote's current snapshot are exactly its local live files. */
  async function expectMatches(dir: string): Promise<void> {
    const writer = writerOf(dir);
    for (const { table, files } of await describeLakeFiles(dir)) {
      const paths = new TablePaths(remote, table.name);
      const found = await readRemoteTable(store, paths);
      const remoteFiles = [...liveFiles(found.manifests).keys()].filter((uri) =>
        paths.isWriters(uri, writer),
      );
      const local = files.map((file) => paths.uri(paths.dataKey(file.place, writer)));
      expect(remoteFiles.sort(), table.name).toEqual(local.sort());
    }
  }

  it('reads only the links that moved: a day whose link stayed is not looked at', async () => {
    await publishStream(dataDir, documentsBatch('a', 3, '2026-11-01T08:00:00Z'));
    await publishStream(dataDir, documentsBatch('b', 2, '2026-11-02T08:00:00Z'));
    const first = await commitRemote(dataDir, remote);
    expect(first.commits.map((c) => c.table)).toEqual(expect.arrayContaining(STREAM_TABLES));
    await expectMatches(dataDir);

    await publishStream(dataDir, documentsBatch('c', 4, '2026-11-03T08:00:00Z'));
    // Days 11-01 and 11-02 are unreadable during this commit: it must not need them.
    const restore = [hideDay('2026-11-01'), hideDay('2026-11-02')];
    let next: Awaited<ReturnType<typeof commitRemote>>;
    try {
      next = await commitRemote(dataDir, remote);
    } finally {
      for (const undo of restore) undo();
    }
    const documents = next.commits.find((c) => c.table === 'stream_documents')!;
    expect(documents.operation).toBe('append');
    expect(documents.addedFiles).toBe(1);
    expect(documents.removedFiles).toBe(0);
    await expectMatches(dataDir);

    // Nothing moved: no table is looked at, no request.
    const idle = await commitRemote(dataDir, remote);
    expect(idle.commits).toEqual([]);
    expect(idle.requests).toBe(0);
  }, 120_000);

  it("a moved day's files are diffed in that day only: other days and writers' files stay", async () => {
    await publishStream(other, documentsBatch('o', 2, '2026-11-03T09:00:00Z'));
    await commitRemote(other, remote);
    // A second part on 11-03, merged with the first (an overwrite of that day's files).
    await publishStream(dataDir, documentsBatch('d', 2, '2026-11-03T10:00:00Z'), { mergeFanout: 2 });
    const restore = hideDay('2026-11-01');
    let merged: Awaited<ReturnType<typeof commitRemote>>;
    try {
      merged = await commitRemote(dataDir, remote);
    } finally {
      restore();
    }
    const documents = merged.commits.find((c) => c.table === 'stream_documents')!;
    expect(documents.removedFiles).toBeGreaterThan(0);
    await expectMatches(dataDir);
    await expectMatches(other);
  }, 120_000);

  it('converges from a state saved before the last commit, and from one without links', async () => {
    const saved = readFileSync(statePath(), 'utf8');
    await publishStream(dataDir, documentsBatch('e', 2, '2026-11-04T08:00:00Z'));
    const landed = await commitRemote(dataDir, remote);
    expect(landed.commits.some((c) => c.table === 'stream_documents')).toBe(true);
    const version = (await readRemoteTable(store, new TablePaths(remote, 'stream_documents'))).version;

    // As after a kill between the commit and the state's save: the old links, the old cache.
    writeFileSync(statePath(), saved);
    const again = await commitRemote(dataDir, remote);
    expect(again.commits.filter((c) => c.table === 'stream_documents')).toEqual([]);
    expect((await readRemoteTable(store, new TablePaths(remote, 'stream_documents'))).version).toBe(version);
    await expectMatches(dataDir);

    // A state an earlier release wrote (no links): every link is compared once.
    const state = JSON.parse(readFileSync(statePath(), 'utf8')) as { links?: unknown };
    delete state.links;
    writeFileSync(statePath(), JSON.stringify(state));
    await publishStream(dataDir, documentsBatch('f', 2, '2026-11-05T08:00:00Z'));
    const caught = await commitRemote(dataDir, remote);
    expect(caught.commits.find((c) => c.table === 'stream_documents')!.addedFiles).toBe(1);
    await expectMatches(dataDir);
  }, 120_000);
});
