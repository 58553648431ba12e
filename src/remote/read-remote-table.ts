import { currentSnapshot, type Manifest, type TableMetadata } from './iceberg-model.js';
import { decodeManifest, decodeManifestList } from './manifest-io.js';
import { objectCache } from './object-cache.js';
import type { TablePaths } from './remote-paths.js';
import type { S3Store } from './s3-store.js';

/** A remote table as of one metadata version: 0 and no metadata for a table not created yet. */
export interface RemoteTable {
  readonly version: number;
  readonly metadata: TableMetadata | undefined;
  /** The current snapshot's data manifests with their entries. */
  readonly manifests: readonly Manifest[];
}

export const NO_TABLE: RemoteTable = { version: 0, metadata: undefined, manifests: [] };

/**
 * The table's current version, read from the store: version-hint.text names a committed
 * version (a writer updates it after its commit, so it may lag), then each next
 * `v<N+1>.metadata.json` found is newer; the last one is current. Manifests are immutable, so
 * those in `known` (by path) are not read again.
 */
export async function readRemoteTable(
  store: S3Store,
  paths: TablePaths,
  known: readonly Manifest[] = [],
): Promise<RemoteTable> {
  const hint = Number.parseInt((await store.get(paths.hintKey))?.toString('utf8') ?? '', 10);
  let version = Number.isInteger(hint) && hint > 0 ? hint : 0;
  let body = version > 0 ? await store.get(paths.versionKey(version)) : undefined;
  if (version > 0 && !body) ({ version, body } = await newestListed(store, paths));
  for (;;) {
    const next = await store.get(paths.versionKey(version + 1));
    if (!next) break;
    version += 1;
    body = next;
  }
  if (!body) return NO_TABLE;
  const metadata = JSON.parse(body.toString('utf8')) as TableMetadata;
  return { version, metadata, manifests: await readManifests(store, paths, metadata, known) };
}

/** A hint naming a version that is gone (a table emptied by hand): the newest listed version. */
async function newestListed(
  store: S3Store,
  paths: TablePaths,
): Promise<{ version: number; body: Buffer | undefined }> {
  const versions = (await store.list(paths.metadataKey('v')))
    .map((o) => /\/v(\d+)\.metadata\.json$/.exec(o.key)?.[1])
    .filter((v): v is string => v !== undefined)
    .map(Number);
  const version = versions.length ? Math.max(...versions) : 0;
  return { version, body: version > 0 ? await store.get(paths.versionKey(version)) : undefined };
}

/** The data manifests of `metadata`'s current snapshot, with their entries. */
export async function readManifests(
  store: S3Store,
  paths: TablePaths,
  metadata: TableMetadata,
  known: readonly Manifest[],
): Promise<Manifest[]> {
  const snapshot = currentSnapshot(metadata);
  if (!snapshot) return [];
  const uri = snapshot['manifest-list'];
  const list = objectCache.list(uri) ?? (await decodeManifestList(await readObject(store, paths, uri)));
  objectCache.rememberList(uri, list);
  const byPath = new Map(known.map((m) => [m.file.path, m]));
  const manifests: Manifest[] = [];
  for (const file of list) {
    const cached = byPath.get(file.path) ?? objectCache.manifest(file.path);
    const entries =
      cached?.entries ?? (await decodeManifest(await readObject(store, paths, file.path), file));
    manifests.push({ file, entries });
    objectCache.rememberManifest({ file, entries });
  }
  return manifests;
}

async function readObject(store: S3Store, paths: TablePaths, uri: string): Promise<Buffer> {
  const key = paths.keyOf(uri);
  if (key === undefined) throw new Error(`remote: ${uri} is outside the bucket s3://${store.remote.bucket}`);
  const bytes = await store.get(key);
  if (!bytes) throw new Error(`remote: ${uri} is missing (a table's file deleted by hand?)`);
  return bytes;
}
