import type { TableMetadata } from './iceberg-model.js';
import type { TablePaths } from './remote-paths.js';
import type { S3Store } from './s3-store.js';

/**
 * The commit itself, the one step a catalog commit (an Iceberg REST catalog's updateTable,
 * Glue's UpdateTable with the previous metadata location as its condition) can replace:
 * writes `v<version>.metadata.json` only if no writer has (If-None-Match: *), then
 * version-hint.text. False when another writer committed `version` first: nothing was
 * written, and the caller re-applies its change on top of that version. A 412 may also answer
 * the SDK's retry of this very write, whose first attempt landed but whose reply was lost (a
 * reset connection): then the object holds these bytes (the snapshot id and the manifest
 * list's name are random), the commit landed, and the hint is written as after any commit. A
 * crash after the metadata leaves the hint one behind, which readers and writers step past
 * (readRemoteTable).
 */
export async function commitMetadata(
  store: S3Store,
  paths: TablePaths,
  version: number,
  metadata: TableMetadata,
): Promise<boolean> {
  const body = Buffer.from(`${JSON.stringify(metadata, null, 1)}\n`);
  const key = paths.versionKey(version);
  if (!(await store.putIfAbsent(key, body, 'application/json')) && !(await store.get(key))?.equals(body))
    return false;
  await store.put(paths.hintKey, Buffer.from(String(version)));
  return true;
}
