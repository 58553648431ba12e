import type { Manifest, TableMetadata } from './iceberg-model.js';
import { decodeManifest, decodeManifestList } from './manifest-io.js';
import { objectCache } from './object-cache.js';
import type { TablePaths } from './remote-paths.js';
import type { S3Store } from './s3-store.js';

/**
 * Deletes the table's objects that nothing in `metadata` references, once they are older than
 * the retention: data files and manifests of expired snapshots, manifests and lists of
 * commits that lost a race, files a crashed upload left behind, metadata files out of the
 * metadata-log. Referenced means by any retained snapshot (its manifest list, its manifests
 * and every file they list), the current metadata file or one in its metadata-log; those are
 * never deleted. An object younger than the retention is never deleted either: another writer
 * may have uploaded it for a commit it has not made yet. Returns how many objects went.
 */
export async function collectGarbage(
  store: S3Store,
  paths: TablePaths,
  table: { version: number; metadata: TableMetadata; manifests: readonly Manifest[] },
  now: number,
  retentionMs: number,
): Promise<number> {
  const keep = new Set<string>([paths.hintKey, paths.versionKey(table.version)]);
  const add = (uri: string) => {
    const key = paths.keyOf(uri);
    if (key) keep.add(key);
  };
  for (const entry of table.metadata['metadata-log']) add(entry['metadata-file']);
  const manifests = new Map(table.manifests.map((m) => [m.file.path, m]));
  for (const snapshot of table.metadata.snapshots) {
    const uri = snapshot['manifest-list'];
    add(uri);
    let list = objectCache.list(uri);
    if (!list) {
      const bytes = await store.get(paths.keyOf(uri) ?? '');
      // A retained snapshot whose list is gone cannot be checked: keep everything.
      if (!bytes) return 0;
      list = await decodeManifestList(bytes);
      objectCache.rememberList(uri, list);
    }
    for (const file of list) {
      add(file.path);
      let manifest = manifests.get(file.path) ?? objectCache.manifest(file.path);
      if (!manifest) {
        const bytes = await store.get(paths.keyOf(file.path) ?? '');
        if (!bytes) return 0;
        manifest = { file, entries: await decodeManifest(bytes, file) };
        objectCache.rememberManifest(manifest);
      }
      manifests.set(file.path, manifest);
      for (const entry of manifest.entries) add(entry.file.path);
    }
  }
  const newer = (key: string) => {
    const version = /\/v(\d+)\.metadata\.json$/.exec(key)?.[1];
    return version !== undefined && Number(version) >= table.version;
  };
  const doomed = (await store.list(paths.key))
    .filter((o) => !keep.has(o.key) && !newer(o.key) && now - o.lastModified >= retentionMs)
    .map((o) => o.key);
  await store.delete(doomed);
  return doomed.length;
}
