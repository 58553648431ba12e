import { randomUUID } from 'node:crypto';
import pLimit from 'p-limit';
import type { RemoteConfig } from '../config/remote-config.js';
import { commitMetadata } from './commit-metadata.js';
import {
  ADDED,
  currentSnapshot,
  type DataFile,
  DELETED,
  type Manifest,
  type ManifestEntry,
  type Operation,
  random53,
  type Snapshot,
} from './iceberg-model.js';
import type { IcebergSchema } from './iceberg-schema.js';
import { manifestFileOf } from './manifest-file-of.js';
import { encodeManifest, encodeManifestList } from './manifest-io.js';
import { type DayPartition, nextMetadata, type TableShape, tableShape } from './next-metadata.js';
import { objectCache } from './object-cache.js';
import { operationOf, planManifests } from './plan-manifests.js';
import { type RemoteTable, readRemoteTable } from './read-remote-table.js';
import type { TablePaths } from './remote-paths.js';
import type { S3Store } from './s3-store.js';
import { boundValue } from './single-value.js';

/**
 * Conditional commits a publish tries before it gives up: each failed one means another writer
 * committed in between, and each retry starts from that writer's version, so only a table
 * under constant concurrent commits runs out of them.
 */
export const MAX_COMMIT_ATTEMPTS = 20;
/** Data files uploaded at once. */
export const UPLOAD_CONCURRENCY = 4;

/** A live file of the local table, by its remote URI. */
export interface LocalFile {
  /** Where to upload it from. */
  readonly path: string;
  readonly bytes: number;
  /** The partition tuple (a date as days from 1970-01-01); {} unpartitioned. */
  readonly partition: Readonly<Record<string, number | null>>;
  /** Rows and column bounds by column name as DuckDB prints them, from its footer. */
  readonly stats?: {
    readonly rows: number;
    readonly bounds: Readonly<Record<string, readonly [string, string]>>;
  };
  /** The remote's entry for it, when this data directory has committed it before (then no footer was read). */
  readonly known?: DataFile;
}

/** A lake table as the remote needs it: its columns and live files by their remote URI. */
export interface LocalTable {
  readonly name: string;
  readonly columns: readonly { readonly name: string; readonly type: string }[];
  readonly partition?: DayPartition;
  /** The live files of the folders in `scope`, or of the whole table. */
  readonly files: ReadonlyMap<string, LocalFile>;
  /**
   * The folders under `data/` whose files `files` holds (the stream days whose links moved since
   * the last commit); undefined: the whole table. This writer's files outside it are as committed.
   */
  readonly scope?: ReadonlySet<string>;
}

export interface CommitContext {
  readonly store: S3Store;
  readonly remote: RemoteConfig;
  readonly writer: string;
  readonly retentionMs: number;
  readonly now: () => number;
  /** Called as each data file is uploaded (push's progress bar). */
  readonly onUpload?: (bytes: number) => void;
}

/** What one table's commit did. */
export interface TableCommit {
  readonly table: string;
  readonly version: number;
  readonly snapshotId: number;
  readonly operation: Operation;
  readonly addedFiles: number;
  readonly removedFiles: number;
  readonly uploadedBytes: number;
  /** 1, or more when other writers committed first. */
  readonly attempts: number;
  /** Snapshots this commit expired (their files may now be unreferenced). */
  readonly expired: readonly Snapshot[];
}

/** The live entries of a snapshot's manifests, by file URI. */
export function liveFiles(manifests: readonly Manifest[]): Map<string, ManifestEntry> {
  const live = new Map<string, ManifestEntry>();
  for (const m of manifests) for (const e of m.entries) if (e.status !== DELETED) live.set(e.file.path, e);
  return live;
}

/**
 * Commits the difference between the local table and the remote's current snapshot as one
 * snapshot: this writer's files the remote lacks are added (uploaded first, each under its own
 * key with If-None-Match: *), its files the local table no longer has are removed (within the
 * local table's scope: the folders whose links moved); other writers' files are left as they
 * are. Based on `known` (what this data directory last saw; re-read from the store when a
 * conditional commit finds it stale). Returns the table as committed and what the commit did
 * (undefined: nothing to change).
 */
export async function commitTable(
  ctx: CommitContext,
  paths: TablePaths,
  local: LocalTable,
  known: RemoteTable | undefined,
): Promise<{ table: RemoteTable; commit: TableCommit | undefined }> {
  let base = known ?? (await readRemoteTable(ctx.store, paths));
  const uploaded = new Set<string>();
  let uploadedBytes = 0;
  for (let attempt = 1; ; attempt += 1) {
    const live = liveFiles(base.manifests);
    const added = [...local.files.entries()].filter(([uri]) => !live.has(uri));
    const removed = [...live.values()]
      .filter(
        (e) =>
          paths.isWriters(e.file.path, ctx.writer) &&
          !local.files.has(e.file.path) &&
          (!local.scope || local.scope.has(paths.folderOf(e.file.path))),
      )
      .map((e) => e.file);
    if (added.length === 0 && removed.length === 0) return { table: base, commit: undefined };
    uploadedBytes += await upload(
      ctx,
      paths,
      added.filter(([uri]) => !uploaded.has(uri)),
      uploaded,
    );
    const shape = tableShape(base.metadata, local.columns, local.partition);
    const files = added.map(([uri, file]) => dataFileOf(uri, file, shape.schema));
    const next = await writeSnapshot(ctx, paths, shape, base, files, removed, attempt);
    if (await commitMetadata(ctx.store, paths, base.version + 1, next.table.metadata!)) {
      return {
        table: next.table,
        commit: {
          table: local.name,
          version: next.table.version,
          snapshotId: next.snapshot['snapshot-id'],
          operation: next.snapshot.summary.operation,
          addedFiles: added.length,
          removedFiles: removed.length,
          uploadedBytes,
          attempts: attempt,
          expired: next.expired,
        },
      };
    }
    if (attempt >= MAX_COMMIT_ATTEMPTS)
      throw new Error(
        `remote: ${local.name}: other writers committed first ${attempt} times in a row; the next publish tries again`,
      );
    base = await readRemoteTable(ctx.store, paths, base.manifests);
  }
}

/** Uploads the added files not uploaded yet; returns the bytes sent (a file already there costs none). */
async function upload(
  ctx: CommitContext,
  paths: TablePaths,
  files: readonly (readonly [string, LocalFile])[],
  uploaded: Set<string>,
): Promise<number> {
  const limit = pLimit(UPLOAD_CONCURRENCY);
  let bytes = 0;
  await Promise.all(
    files.map(([uri, file]) =>
      limit(async () => {
        const key = paths.keyOf(uri)!;
        if (await ctx.store.uploadFile(key, file.path, file.bytes)) bytes += file.bytes;
        uploaded.add(uri);
        ctx.onUpload?.(file.bytes);
      }),
    ),
  );
  return bytes;
}

/** A manifest's data file for a local file: its bounds under the schema's field ids. */
function dataFileOf(uri: string, file: LocalFile, schema: IcebergSchema): DataFile {
  if (file.known) return file.known;
  if (!file.stats) throw new Error(`remote: no row count for ${uri}`);
  const lower: Record<string, string> = {};
  const upper: Record<string, string> = {};
  for (const [column, [low, high]] of Object.entries(file.stats.bounds)) {
    const field = schema.fields.find((f) => f.name === column);
    const [min, max] = field ? [boundValue(field.type, low), boundValue(field.type, high)] : [];
    if (!field || min === undefined || max === undefined) continue;
    lower[field.id] = min;
    upper[field.id] = max;
  }
  return { path: uri, rows: file.stats.rows, bytes: file.bytes, partition: file.partition, lower, upper };
}

/**
 * Writes the manifests and manifest list of the snapshot applying the change to `base`, and
 * returns the table metadata that commits it (not written yet).
 */
async function writeSnapshot(
  ctx: CommitContext,
  paths: TablePaths,
  shape: TableShape,
  base: RemoteTable,
  added: readonly DataFile[],
  removed: readonly DataFile[],
  attempt: number,
): Promise<{ table: RemoteTable; snapshot: Snapshot; expired: Snapshot[] }> {
  const id = random53();
  const sequenceNumber = (base.metadata?.['last-sequence-number'] ?? 0) + 1;
  const plan = planManifests(
    base.manifests,
    { added, removed: new Set(removed.map((f) => f.path)) },
    {
      id,
      sequenceNumber,
    },
  );
  const batch = randomUUID();
  const written: Manifest[] = [];
  for (const [i, entries] of plan.written.entries()) {
    const bytes = await encodeManifest(entries, shape, (e) => e.status === ADDED && e.snapshotId === id);
    const key = paths.metadataKey(`${batch}-m${i}.avro`);
    await ctx.store.putIfAbsent(key, bytes);
    const file = manifestFileOf(entries, { path: paths.uri(key), length: bytes.length }, shape.spec, {
      id,
      sequenceNumber,
    });
    written.push({ file, entries });
    objectCache.rememberManifest({ file, entries });
  }
  const keptPaths = new Set(plan.kept.map((f) => f.path));
  const manifests = [...written, ...base.manifests.filter((m) => keptPaths.has(m.file.path))];
  const parent = currentSnapshot(base.metadata);
  const listKey = paths.metadataKey(`snap-${id}-${attempt}-${batch}.avro`);
  objectCache.rememberList(
    paths.uri(listKey),
    manifests.map((m) => m.file),
  );
  await ctx.store.putIfAbsent(
    listKey,
    await encodeManifestList(
      manifests.map((m) => m.file),
      { id, parentId: parent?.['snapshot-id'], sequenceNumber },
    ),
  );
  const now = ctx.now();
  const snapshot: Snapshot = {
    'snapshot-id': id,
    ...(parent ? { 'parent-snapshot-id': parent['snapshot-id'] } : {}),
    'sequence-number': sequenceNumber,
    'timestamp-ms': now,
    'manifest-list': paths.uri(listKey),
    summary: summaryOf(manifests, added, removed, {
      created: written.length,
      kept: plan.kept.length,
      replaced: plan.replaced,
      writer: ctx.writer,
    }),
    'schema-id': shape.schema['schema-id'],
  };
  const { metadata, expired } = nextMetadata({
    base: base.metadata,
    baseFile: base.version > 0 ? paths.uri(paths.versionKey(base.version)) : undefined,
    location: paths.location,
    shape,
    snapshot,
    now,
    retentionMs: ctx.retentionMs,
  });
  return { table: { version: base.version + 1, metadata, manifests }, snapshot, expired };
}

/** The snapshot summary (format/spec.md, Appendix F): the operation, what was added and deleted, and the totals. */
function summaryOf(
  manifests: readonly Manifest[],
  added: readonly DataFile[],
  removed: readonly DataFile[],
  counts: { created: number; kept: number; replaced: number; writer: string },
): Snapshot['summary'] {
  const live = [...liveFiles(manifests).values()].map((e) => e.file);
  const sum = (files: readonly DataFile[], of: (f: DataFile) => number) =>
    String(files.reduce((n, f) => n + of(f), 0));
  const partitions = new Set([...added, ...removed].map((f) => JSON.stringify(f.partition)));
  return {
    operation: operationOf(added, removed),
    'added-data-files': String(added.length),
    'deleted-data-files': String(removed.length),
    'added-records': sum(added, (f) => f.rows),
    'deleted-records': sum(removed, (f) => f.rows),
    'added-files-size': sum(added, (f) => f.bytes),
    'removed-files-size': sum(removed, (f) => f.bytes),
    'changed-partition-count': String(partitions.size),
    'total-data-files': String(live.length),
    'total-records': sum(live, (f) => f.rows),
    'total-files-size': sum(live, (f) => f.bytes),
    'total-delete-files': '0',
    'total-position-deletes': '0',
    'total-equality-deletes': '0',
    'manifests-created': String(counts.created),
    'manifests-kept': String(counts.kept),
    'manifests-replaced': String(counts.replaced),
    'engine-name': 'campaign-warehouse',
    'campaign-warehouse.writer': counts.writer,
  };
}
