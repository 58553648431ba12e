import { decodeAvroFile, encodeAvroFile } from './avro-file.js';
import {
  ADDED,
  type DataFile,
  type EntryStatus,
  type FieldSummary,
  type ManifestEntry,
  type ManifestFile,
  type PartitionSpec,
} from './iceberg-model.js';
import type { IcebergSchema } from './iceberg-schema.js';
import { MANIFEST_FILE_SCHEMA, manifestEntrySchema } from './manifest-schemas.js';

/** What a manifest's header says about the table (format/spec.md: required key-value metadata of v2). */
export interface ManifestContext {
  readonly schema: IcebergSchema;
  readonly spec: PartitionSpec;
}

/**
 * A manifest file of `entries`. Entries added by the snapshot being committed (status ADDED,
 * `inheritSequence`) are written with null sequence numbers: they inherit the manifest list's,
 * as the spec asks of files added in a commit. Others carry theirs.
 */
export function encodeManifest(
  entries: readonly ManifestEntry[],
  context: ManifestContext,
  inheritSequence: (entry: ManifestEntry) => boolean,
): Promise<Buffer> {
  const sourceType = (id: number) => context.schema.fields.find((f) => f.id === id)?.type ?? 'string';
  const schema = manifestEntrySchema(context.spec.fields, sourceType);
  const records = entries.map((entry) => {
    const inherit = entry.status === ADDED && inheritSequence(entry);
    return {
      status: entry.status,
      snapshot_id: entry.snapshotId,
      sequence_number: inherit ? null : entry.sequenceNumber,
      file_sequence_number: inherit ? null : entry.fileSequenceNumber,
      data_file: {
        content: 0,
        file_path: entry.file.path,
        file_format: 'PARQUET',
        partition: Object.fromEntries(
          context.spec.fields.map((f) => [f.name, entry.file.partition[f.name] ?? null]),
        ),
        record_count: entry.file.rows,
        file_size_in_bytes: entry.file.bytes,
        lower_bounds: boundsArray(entry.file.lower),
        upper_bounds: boundsArray(entry.file.upper),
        sort_order_id: null,
      },
    };
  });
  return encodeAvroFile(schema, records, {
    schema: JSON.stringify(context.schema),
    'schema-id': String(context.schema['schema-id']),
    'partition-spec': JSON.stringify(context.spec.fields),
    'partition-spec-id': String(context.spec['spec-id']),
    'format-version': '2',
    content: 'data',
  });
}

function boundsArray(bounds: Readonly<Record<string, string>>): { key: number; value: Buffer }[] | null {
  const keys = Object.keys(bounds);
  if (keys.length === 0) return null;
  return keys.map((key) => ({ key: Number(key), value: Buffer.from(bounds[key]!, 'hex') }));
}

interface EntryRecord {
  status: number;
  snapshot_id: number | null;
  sequence_number: number | null;
  file_sequence_number: number | null;
  data_file: {
    content?: number;
    file_path: string;
    partition: Record<string, number | null>;
    record_count: number;
    file_size_in_bytes: number;
    lower_bounds?: { key: number; value: Buffer }[] | null;
    upper_bounds?: { key: number; value: Buffer }[] | null;
  };
}

/** The data entries of a manifest, sequence numbers and snapshot ids inherited from `file` where null. */
export async function decodeManifest(bytes: Buffer, file: ManifestFile): Promise<ManifestEntry[]> {
  const { records } = await decodeAvroFile(bytes);
  return (records as EntryRecord[])
    .filter((r) => (r.data_file.content ?? 0) === 0)
    .map((r) => {
      const inherited = r.status === ADDED;
      const sequence = (value: number | null) => {
        if (value !== null) return value;
        if (!inherited)
          throw new Error(`remote: manifest ${file.path} has an entry without its sequence number`);
        return file.sequenceNumber;
      };
      const d = r.data_file;
      const data: DataFile = {
        path: d.file_path,
        rows: Number(d.record_count),
        bytes: Number(d.file_size_in_bytes),
        partition: { ...d.partition },
        lower: boundsRecord(d.lower_bounds),
        upper: boundsRecord(d.upper_bounds),
      };
      return {
        status: r.status as EntryStatus,
        snapshotId: r.snapshot_id ?? file.addedSnapshotId,
        sequenceNumber: sequence(r.sequence_number),
        fileSequenceNumber: sequence(r.file_sequence_number),
        file: data,
      };
    });
}

function boundsRecord(list: { key: number; value: Buffer }[] | null | undefined): Record<string, string> {
  return Object.fromEntries(
    (list ?? []).map(({ key, value }) => [String(key), Buffer.from(value).toString('hex')]),
  );
}

/** A manifest list of `manifests`, for the snapshot `snapshotId` of `sequenceNumber`. */
export function encodeManifestList(
  manifests: readonly ManifestFile[],
  snapshot: { id: number; parentId: number | undefined; sequenceNumber: number },
): Promise<Buffer> {
  const records = manifests.map((m) => ({
    manifest_path: m.path,
    manifest_length: m.length,
    partition_spec_id: m.specId,
    content: 0,
    sequence_number: m.sequenceNumber,
    min_sequence_number: m.minSequenceNumber,
    added_snapshot_id: m.addedSnapshotId,
    added_files_count: m.addedFiles,
    existing_files_count: m.existingFiles,
    deleted_files_count: m.deletedFiles,
    added_rows_count: m.addedRows,
    existing_rows_count: m.existingRows,
    deleted_rows_count: m.deletedRows,
    partitions:
      m.partitions?.map((p) => ({
        contains_null: p.containsNull,
        contains_nan: p.containsNan,
        lower_bound: p.lower === null ? null : Buffer.from(p.lower, 'hex'),
        upper_bound: p.upper === null ? null : Buffer.from(p.upper, 'hex'),
      })) ?? null,
    key_metadata: null,
  }));
  return encodeAvroFile(MANIFEST_FILE_SCHEMA, records, {
    'snapshot-id': String(snapshot.id),
    'parent-snapshot-id': snapshot.parentId === undefined ? 'null' : String(snapshot.parentId),
    'sequence-number': String(snapshot.sequenceNumber),
    'format-version': '2',
  });
}

interface ManifestFileRecord {
  manifest_path: string;
  manifest_length: number;
  partition_spec_id: number;
  content?: number;
  sequence_number?: number;
  min_sequence_number?: number;
  added_snapshot_id: number;
  added_files_count?: number | null;
  existing_files_count?: number | null;
  deleted_files_count?: number | null;
  added_rows_count?: number | null;
  existing_rows_count?: number | null;
  deleted_rows_count?: number | null;
  partitions?:
    | {
        contains_null: boolean;
        contains_nan?: boolean | null;
        lower_bound?: Buffer | null;
        upper_bound?: Buffer | null;
      }[]
    | null;
}

/** The data manifests of a manifest list. */
export async function decodeManifestList(bytes: Buffer): Promise<ManifestFile[]> {
  const { records } = await decodeAvroFile(bytes);
  return (records as ManifestFileRecord[])
    .filter((r) => (r.content ?? 0) === 0)
    .map((r) => ({
      path: r.manifest_path,
      length: Number(r.manifest_length),
      specId: r.partition_spec_id,
      sequenceNumber: Number(r.sequence_number ?? 0),
      minSequenceNumber: Number(r.min_sequence_number ?? 0),
      addedSnapshotId: Number(r.added_snapshot_id),
      addedFiles: r.added_files_count ?? 0,
      existingFiles: r.existing_files_count ?? 0,
      deletedFiles: r.deleted_files_count ?? 0,
      addedRows: Number(r.added_rows_count ?? 0),
      existingRows: Number(r.existing_rows_count ?? 0),
      deletedRows: Number(r.deleted_rows_count ?? 0),
      partitions:
        r.partitions?.map(
          (p): FieldSummary => ({
            containsNull: p.contains_null,
            containsNan: p.contains_nan ?? null,
            lower: p.lower_bound ? Buffer.from(p.lower_bound).toString('hex') : null,
            upper: p.upper_bound ? Buffer.from(p.upper_bound).toString('hex') : null,
          }),
        ) ?? null,
    }));
}
