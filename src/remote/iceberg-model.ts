/**
 * The Iceberg v2 structures the remote writes and reads (format/spec.md), as plain data. Long
 * values are JS numbers: this writer's snapshot ids are below 2^53 (random53), and counts and
 * sizes are far below it.
 */
import type { IcebergSchema } from './iceberg-schema.js';
import type { PartitionField } from './manifest-schemas.js';

/** A data file as a manifest lists it. */
export interface DataFile {
  /** Its full URI, `s3://bucket/prefix/<table>/data/…`. */
  readonly path: string;
  readonly rows: number;
  readonly bytes: number;
  /** The partition tuple by partition field name (a date as days since 1970-01-01); {} unpartitioned. */
  readonly partition: Readonly<Record<string, number | null>>;
  /** Lower and upper bounds by field id, in the spec's binary single-value serialization (hex). */
  readonly lower: Readonly<Record<string, string>>;
  readonly upper: Readonly<Record<string, string>>;
}

export const EXISTING = 0;
export const ADDED = 1;
export const DELETED = 2;
export type EntryStatus = typeof EXISTING | typeof ADDED | typeof DELETED;

/** A manifest entry with its sequence numbers and snapshot id resolved (inherited from the manifest list when null). */
export interface ManifestEntry {
  readonly status: EntryStatus;
  readonly snapshotId: number;
  readonly sequenceNumber: number;
  readonly fileSequenceNumber: number;
  readonly file: DataFile;
}

/** A partition field's summary in a manifest list (bounds hex-encoded). */
export interface FieldSummary {
  readonly containsNull: boolean;
  readonly containsNan: boolean | null;
  readonly lower: string | null;
  readonly upper: string | null;
}

/** A manifest list's entry. */
export interface ManifestFile {
  readonly path: string;
  readonly length: number;
  readonly specId: number;
  readonly sequenceNumber: number;
  readonly minSequenceNumber: number;
  readonly addedSnapshotId: number;
  readonly addedFiles: number;
  readonly existingFiles: number;
  readonly deletedFiles: number;
  readonly addedRows: number;
  readonly existingRows: number;
  readonly deletedRows: number;
  readonly partitions: readonly FieldSummary[] | null;
}

/** A manifest with its entries (read, or written by this commit). */
export interface Manifest {
  readonly file: ManifestFile;
  readonly entries: readonly ManifestEntry[];
}

export type Operation = 'append' | 'replace' | 'overwrite' | 'delete';

export interface Snapshot {
  readonly 'snapshot-id': number;
  readonly 'parent-snapshot-id'?: number;
  readonly 'sequence-number': number;
  readonly 'timestamp-ms': number;
  readonly 'manifest-list': string;
  readonly summary: Readonly<Record<string, string>> & { readonly operation: Operation };
  readonly 'schema-id': number;
}

export interface PartitionSpec {
  readonly 'spec-id': number;
  readonly fields: readonly PartitionField[];
}

/** Table metadata, format version 2 (the fields this writer sets; others it keeps as read). */
export interface TableMetadata {
  readonly 'format-version': 2;
  readonly 'table-uuid': string;
  readonly location: string;
  readonly 'last-sequence-number': number;
  readonly 'last-updated-ms': number;
  readonly 'last-column-id': number;
  readonly schemas: readonly IcebergSchema[];
  readonly 'current-schema-id': number;
  readonly 'partition-specs': readonly PartitionSpec[];
  readonly 'default-spec-id': number;
  readonly 'last-partition-id': number;
  readonly properties: Readonly<Record<string, string>>;
  readonly 'current-snapshot-id'?: number;
  readonly refs: Readonly<
    Record<string, { readonly 'snapshot-id': number; readonly type: 'branch' | 'tag' }>
  >;
  readonly snapshots: readonly Snapshot[];
  readonly 'snapshot-log': readonly { readonly 'snapshot-id': number; readonly 'timestamp-ms': number }[];
  readonly 'metadata-log': readonly { readonly 'metadata-file': string; readonly 'timestamp-ms': number }[];
  readonly 'sort-orders': readonly { readonly 'order-id': number; readonly fields: readonly unknown[] }[];
  readonly 'default-sort-order-id': number;
}

/** The current snapshot of `metadata`, or undefined for a table without one. */
export function currentSnapshot(metadata: TableMetadata | undefined): Snapshot | undefined {
  const id = metadata?.['current-snapshot-id'];
  if (id === undefined || id === -1) return undefined;
  return metadata!.snapshots.find((s) => s['snapshot-id'] === id);
}

/** A positive id below 2^53 (exact in JSON and JS numbers), random as the spec advises. */
export function random53(): number {
  const high = Math.floor(Math.random() * 0x200000);
  const low = Math.floor(Math.random() * 0x100000000);
  return high * 0x100000000 + low || 1;
}
