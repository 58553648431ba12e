import {
  ADDED,
  DELETED,
  EXISTING,
  type FieldSummary,
  type ManifestEntry,
  type ManifestFile,
  type PartitionSpec,
} from './iceberg-model.js';
import { dateValue } from './single-value.js';

/**
 * The manifest list's entry for a manifest of `entries` written at `path` (`length` bytes) by
 * the snapshot `snapshotId` of `sequenceNumber`: counts by status, the least data sequence
 * number of its live files, and each partition field's summary (its date bounds).
 */
export function manifestFileOf(
  entries: readonly ManifestEntry[],
  where: { path: string; length: number },
  spec: PartitionSpec,
  snapshot: { id: number; sequenceNumber: number },
): ManifestFile {
  const count = (status: number) => entries.filter((e) => e.status === status);
  const rows = (list: readonly ManifestEntry[]) => list.reduce((sum, e) => sum + e.file.rows, 0);
  const [added, existing, deleted] = [count(ADDED), count(EXISTING), count(DELETED)];
  const live = [...added, ...existing];
  return {
    path: where.path,
    length: where.length,
    specId: spec['spec-id'],
    sequenceNumber: snapshot.sequenceNumber,
    minSequenceNumber: live.length
      ? Math.min(...live.map((e) => (e.status === ADDED ? snapshot.sequenceNumber : e.sequenceNumber)))
      : snapshot.sequenceNumber,
    addedSnapshotId: snapshot.id,
    addedFiles: added.length,
    existingFiles: existing.length,
    deletedFiles: deleted.length,
    addedRows: rows(added),
    existingRows: rows(existing),
    deletedRows: rows(deleted),
    partitions: spec.fields.map((field) => summary(entries.map((e) => e.file.partition[field.name] ?? null))),
  };
}

/** A date partition field's summary over `values` (days; null for a null value). */
function summary(values: readonly (number | null)[]): FieldSummary {
  const present = values.filter((v): v is number => v !== null);
  return {
    containsNull: present.length < values.length,
    containsNan: false,
    lower: present.length ? dateValue(Math.min(...present)) : null,
    upper: present.length ? dateValue(Math.max(...present)) : null,
  };
}
