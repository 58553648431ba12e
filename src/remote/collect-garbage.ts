import type { Manifest, Snapshot, TableMetadata } from './iceberg-model.js';
import { decodeManifest, decodeManifestList } from './manifest-io.js';
import { objectCache } from './object-cache.js';
import type { TablePaths } from './remote-paths.js';
import type { S3Store } from './s3-store.js';

/** Objects a sweep after a commit lists at most: its cost does not grow with the table's history. */
export const SWEEP_PAGE = 100;

/** Where a sweep of a table's objects starts and how far it goes. */
export interface SweepPage {
  /** The last key the previous sweep listed ('' from the start). */
  readonly after: string;
  readonly count: number;
}

export interface CollectOptions {
  /** A sweep of the table's listed objects: all of them, or a page of them (default: none). */
  readonly sweep?: SweepPage | 'all';
  /** Snapshots the commit just expired: what they alone referenced goes without a listing. */
  readonly expired?: readonly Snapshot[];
}

/**
 * Deletes the table's objects that nothing in `metadata` references, once they are older than
 * the retention: data files and manifests of expired snapshots, manifests and lists of
 * commits that lost a race, files a crashed upload left behind, metadata files out of the
 * metadata-log. Referenced means by any retained snapshot (its manifest list, its manifests
 * and every file they list), the current metadata file or one in its metadata-log; those are
 * never deleted. An object younger than the retention is never deleted either: another writer
 * may have uploaded it for a commit it has not made yet. Two ways to find them, so that a
 * commit's cost follows its change: what the snapshots the commit `expired` referenced and no
 * retained one does (their lists, manifests and files, older than the retention as those
 * snapshots are; no listing), and a `sweep` of the listed objects: every one, or `count` of
 * them after `after` (a sweep spread over commits, each page taking up where the last stopped,
 * starting over after the last key), which finds what a crash or a lost race left and the
 * metadata files out of the log. Returns how many objects went and where the next page starts
 * ('' after the last key).
 */
export async function collectGarbage(
  store: S3Store,
  paths: TablePaths,
  table: { version: number; metadata: TableMetadata; manifests: readonly Manifest[] },
  now: number,
  retentionMs: number,
  options: CollectOptions = {},
): Promise<{ deleted: number; after: string }> {
  const { sweep } = options;
  const after = typeof sweep === 'object' ? sweep.after : '';
  const keep = await referencedBy(store, paths, table.metadata.snapshots, table.manifests);
  // A retained snapshot whose list or a manifest is gone cannot be checked: keep everything.
  if (!keep) return { deleted: 0, after };
  keep.add(paths.hintKey);
  keep.add(paths.versionKey(table.version));
  for (const entry of table.metadata['metadata-log']) {
    const key = paths.keyOf(entry['metadata-file']);
    if (key) keep.add(key);
  }
  const doomed = new Set<string>();
  for (const snapshot of options.expired ?? [])
    for (const key of (await referencedBy(store, paths, [snapshot], table.manifests)) ?? [])
      if (!keep.has(key)) doomed.add(key);
  const newer = (key: string) => {
    const version = /\/v(\d+)\.metadata\.json$/.exec(key)?.[1];
    return version !== undefined && Number(version) >= table.version;
  };
  const listed =
    sweep === 'all'
      ? { objects: await store.list(paths.key), more: false }
      : sweep
        ? await store.listAfter(paths.key, sweep.after, sweep.count)
        : undefined;
  for (const o of listed?.objects ?? [])
    if (!keep.has(o.key) && !newer(o.key) && now - o.lastModified >= retentionMs) doomed.add(o.key);
  await store.delete([...doomed]);
  const next = !listed ? after : listed.more ? (listed.objects.at(-1)?.key ?? '') : '';
  return { deleted: doomed.size, after: next };
}

/**
 * The keys `snapshots` reference: their manifest lists, manifests and every file those list
 * (read from the cache, `known` or the store); undefined when one of them is gone.
 */
async function referencedBy(
  store: S3Store,
  paths: TablePaths,
  snapshots: readonly Snapshot[],
  known: readonly Manifest[],
): Promise<Set<string> | undefined> {
  const keys = new Set<string>();
  const add = (uri: string) => {
    const key = paths.keyOf(uri);
    if (key) keys.add(key);
  };
  const manifests = new Map(known.map((m) => [m.file.path, m]));
  for (const snapshot of snapshots) {
    const uri = snapshot['manifest-list'];
    add(uri);
    let list = objectCache.list(uri);
    if (!list) {
      const bytes = await store.get(paths.keyOf(uri) ?? '');
      if (!bytes) return undefined;
      list = await decodeManifestList(bytes);
      objectCache.rememberList(uri, list);
    }
    for (const file of list) {
      add(file.path);
      let manifest = manifests.get(file.path) ?? objectCache.manifest(file.path);
      if (!manifest) {
        const bytes = await store.get(paths.keyOf(file.path) ?? '');
        if (!bytes) return undefined;
        manifest = { file, entries: await decodeManifest(bytes, file) };
        objectCache.rememberManifest(manifest);
      }
      manifests.set(file.path, manifest);
      for (const entry of manifest.entries) add(entry.file.path);
    }
  }
  return keys;
}
