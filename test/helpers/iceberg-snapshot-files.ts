/**
 * Loading a remote table as a location-based engine does, anonymously over plain HTTP (the
 * bucket must allow anonymous reads: withMoto({ publicRead: true })): the metadata version
 * (version-hint.text, or the newest one by stepping past it), its current snapshot, the
 * manifest list and the manifests, read with avro-js (not the writer's Avro library). Nothing
 * of src/remote/ is used.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readAvroWithAvroJs, unwrap } from './avro-js-read.js';

/** A live data file of a snapshot, as its manifest entry lists it. */
export interface SnapshotFile {
  readonly path: string;
  readonly records: number;
  readonly bytes: number;
}

/** A table at one metadata version: its current snapshot and the live files it lists. */
export interface SnapshotFiles {
  /** 0: no metadata file yet (the table was never committed). */
  readonly version: number;
  readonly snapshotId?: number;
  readonly operation?: string;
  /** The snapshot summary's `total-records`. */
  readonly totalRecords?: number;
  readonly files: readonly SnapshotFile[];
}

/** `https?://host/bucket/key` of an `s3://bucket/key` URI, on the test server. */
export function httpUrl(motoUrl: string, uri: string): string {
  return `${motoUrl}/${uri.replace(/^s3:\/\//, '')}`;
}

/** The object's bytes, or undefined when there is none (404; any other status throws). */
export async function getObject(motoUrl: string, uri: string): Promise<Buffer | undefined> {
  const reply = await fetch(httpUrl(motoUrl, uri));
  if (reply.status === 404) {
    await reply.arrayBuffer();
    return undefined;
  }
  if (!reply.ok) throw new Error(`GET ${uri}: HTTP ${reply.status}`);
  return Buffer.from(await reply.arrayBuffer());
}

const scratch = { dir: '', n: 0 };

/**
 * The table at `tableUri` (`s3://bucket/prefix/table`) as a reader loads it: `hint` reads the
 * version version-hint.text names; `newest` steps past the hint while `v<N+1>` exists (what a
 * reader that lists, or this tool's writers, see).
 */
export async function readSnapshotFiles(
  motoUrl: string,
  tableUri: string,
  how: 'hint' | 'newest' = 'hint',
): Promise<SnapshotFiles> {
  scratch.dir ||= mkdtempSync(join(tmpdir(), 'cw-iceberg-read-'));
  const hint = await getObject(motoUrl, `${tableUri}/metadata/version-hint.text`);
  let version = hint ? Number(hint.toString().trim()) : 0;
  let body =
    version > 0 ? await getObject(motoUrl, `${tableUri}/metadata/v${version}.metadata.json`) : undefined;
  if (version > 0 && !body)
    throw new Error(`${tableUri}: version-hint.text names v${version}, which is missing`);
  if (how === 'newest')
    for (;;) {
      const next = await getObject(motoUrl, `${tableUri}/metadata/v${version + 1}.metadata.json`);
      if (!next) break;
      version += 1;
      body = next;
    }
  if (!body) return { version: 0, files: [] };
  const metadata = JSON.parse(body.toString()) as {
    'current-snapshot-id'?: number;
    snapshots: { 'snapshot-id': number; 'manifest-list': string; summary: Record<string, string> }[];
  };
  const snapshot = metadata.snapshots.find((s) => s['snapshot-id'] === metadata['current-snapshot-id']);
  if (!snapshot) return { version, files: [] };
  const list = await readAvro(motoUrl, snapshot['manifest-list']);
  const files: SnapshotFile[] = [];
  for (const manifestFile of list.records) {
    const manifest = await readAvro(motoUrl, manifestFile.manifest_path as string);
    for (const entry of manifest.records) {
      if (entry.status === 2) continue;
      const file = entry.data_file as {
        file_path: string;
        record_count: unknown;
        file_size_in_bytes: unknown;
      };
      files.push({
        path: file.file_path,
        records: Number(unwrap(file.record_count)),
        bytes: Number(unwrap(file.file_size_in_bytes)),
      });
    }
  }
  return {
    version,
    snapshotId: snapshot['snapshot-id'],
    operation: snapshot.summary.operation,
    totalRecords: Number(snapshot.summary['total-records']),
    files,
  };
}

async function readAvro(motoUrl: string, uri: string) {
  const bytes = await getObject(motoUrl, uri);
  if (!bytes) throw new Error(`${uri} is missing`);
  scratch.n += 1;
  return readAvroWithAvroJs(bytes, scratch.dir, `${scratch.n}.avro`);
}
