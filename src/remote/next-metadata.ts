import { randomUUID } from 'node:crypto';
import type { PartitionSpec, Snapshot, TableMetadata } from './iceberg-model.js';
import { evolveSchema, type IcebergSchema, nameMapping } from './iceberg-schema.js';
import type { PartitionField } from './manifest-schemas.js';

/** The first partition field id of a spec (the spec's convention since v1). */
const PARTITION_FIELD_START = 1000;

/** The schema and spec a commit writes with: the current ones, or evolved for new columns. */
export interface TableShape {
  readonly schema: IcebergSchema;
  readonly spec: PartitionSpec;
  readonly lastColumnId: number;
  /** Whether the schema is new in this commit. */
  readonly evolved: boolean;
}

/** A table partitioned by the day of a timestamp column: `name` = day(`source`). */
export interface DayPartition {
  readonly name: string;
  readonly source: string;
}

/**
 * The schema and partition spec for `columns` over `base` (undefined: a new table): field ids
 * kept, new columns appended with new ids. A stream table is partitioned by `day(received_at)`
 * named received_date, as its local folders are: Iceberg's hidden partitioning, so a filter on
 * received_at skips the other days' files.
 */
export function tableShape(
  base: TableMetadata | undefined,
  columns: readonly { readonly name: string; readonly type: string }[],
  partition: DayPartition | undefined,
): TableShape {
  const current = base?.schemas.find((s) => s['schema-id'] === base['current-schema-id']);
  const evolved = evolveSchema(columns, current, base?.['last-column-id'] ?? 0);
  const schema = evolved?.schema ?? current!;
  const spec =
    base?.['partition-specs'].find((s) => s['spec-id'] === base['default-spec-id']) ??
    newSpec(schema, partition);
  return {
    schema,
    spec,
    lastColumnId: evolved?.lastColumnId ?? base!['last-column-id'],
    evolved: evolved !== undefined,
  };
}

function newSpec(schema: IcebergSchema, partition: DayPartition | undefined): PartitionSpec {
  const source = partition ? schema.fields.find((f) => f.name === partition.source) : undefined;
  if (partition && !source) throw new Error(`remote: no column ${partition.source} to partition by`);
  const fields: PartitionField[] =
    partition && source
      ? [
          {
            'source-id': source.id,
            'field-id': PARTITION_FIELD_START,
            name: partition.name,
            transform: 'day',
          },
        ]
      : [];
  return { 'spec-id': 0, fields };
}

export interface NextMetadataInput {
  readonly base: TableMetadata | undefined;
  /** The URI of the base's metadata file (for metadata-log). */
  readonly baseFile: string | undefined;
  readonly location: string;
  readonly shape: TableShape;
  readonly snapshot: Snapshot;
  readonly now: number;
  readonly retentionMs: number;
}

/**
 * The table metadata after `snapshot`: it becomes current (and `refs.main`), the snapshot-log
 * and metadata-log grow by one, the schema list by the evolved schema; snapshots older than
 * the retention expire (the current one never), with their snapshot-log entries, and so do
 * metadata-log entries older than the retention.
 */
export function nextMetadata(input: NextMetadataInput): { metadata: TableMetadata; expired: Snapshot[] } {
  const { base, shape, snapshot, now, retentionMs } = input;
  const cutoff = now - retentionMs;
  // Tags and branches other than main keep their snapshots; main moves to the new one.
  const pinned = new Set(
    Object.entries(base?.refs ?? {})
      .filter(([name]) => name !== 'main')
      .map(([, ref]) => ref['snapshot-id']),
  );
  const keep = (s: Snapshot) => s['timestamp-ms'] >= cutoff || pinned.has(s['snapshot-id']);
  const previous = base?.snapshots ?? [];
  const retained = previous.filter(keep);
  const expired = previous.filter((s) => !keep(s));
  const expiredIds = new Set(expired.map((s) => s['snapshot-id']));
  const log = base?.['snapshot-log'] ?? [];
  const lastExpired = log.reduce((at, e, i) => (expiredIds.has(e['snapshot-id']) ? i : at), -1);
  const metadataLog = [
    ...(base?.['metadata-log'] ?? []),
    ...(input.baseFile
      ? [{ 'metadata-file': input.baseFile, 'timestamp-ms': base!['last-updated-ms'] }]
      : []),
  ].filter((e) => e['timestamp-ms'] >= cutoff);
  const schemas = shape.evolved ? [...(base?.schemas ?? []), shape.schema] : base!.schemas;
  const metadata: TableMetadata = {
    'format-version': 2,
    'table-uuid': base?.['table-uuid'] ?? randomUUID(),
    location: input.location,
    'last-sequence-number': snapshot['sequence-number'],
    'last-updated-ms': now,
    'last-column-id': shape.lastColumnId,
    schemas,
    'current-schema-id': shape.schema['schema-id'],
    'partition-specs': base?.['partition-specs'] ?? [shape.spec],
    'default-spec-id': shape.spec['spec-id'],
    'last-partition-id': Math.max(
      base?.['last-partition-id'] ?? PARTITION_FIELD_START - 1,
      ...shape.spec.fields.map((f) => f['field-id']),
    ),
    properties: {
      ...base?.properties,
      'write.format.default': 'parquet',
      'schema.name-mapping.default': nameMapping(shape.schema),
      'history.expire.max-snapshot-age-ms': String(retentionMs),
      'history.expire.min-snapshots-to-keep': '1',
    },
    'current-snapshot-id': snapshot['snapshot-id'],
    refs: { ...base?.refs, main: { 'snapshot-id': snapshot['snapshot-id'], type: 'branch' } },
    snapshots: [...retained, snapshot],
    'snapshot-log': [
      ...log.slice(lastExpired + 1),
      { 'snapshot-id': snapshot['snapshot-id'], 'timestamp-ms': now },
    ],
    'metadata-log': metadataLog,
    'sort-orders': base?.['sort-orders'] ?? [{ 'order-id': 0, fields: [] }],
    'default-sort-order-id': base?.['default-sort-order-id'] ?? 0,
  };
  return { metadata, expired };
}
