/**
 * The Avro schemas of Iceberg v2 manifests and manifest lists (format/spec.md, "Manifests"
 * and "Manifest Lists"), with the spec's field ids. Optional fields are unions with null,
 * defaulting to null; maps keyed by int are arrays of key-value records (logicalType map).
 */

/** A partition field of a table's spec (here: the day of a timestamp, or a column's identity). */
export interface PartitionField {
  readonly 'source-id': number;
  readonly 'field-id': number;
  readonly name: string;
  readonly transform: string;
}

const optional = (name: string, type: unknown, id: number) => ({
  name,
  type: ['null', type],
  default: null,
  'field-id': id,
});

const intBinaryMap = (name: string, id: number, keyId: number, valueId: number) =>
  optional(
    name,
    {
      type: 'array',
      logicalType: 'map',
      items: {
        type: 'record',
        name: `k${keyId}_v${valueId}`,
        fields: [
          { name: 'key', type: 'int', 'field-id': keyId },
          { name: 'value', type: 'bytes', 'field-id': valueId },
        ],
      },
    },
    id,
  );

/** The Avro type of a partition value of `transform` over a source of type `type`. */
function partitionValueType(transform: string, type: string): unknown {
  if (transform === 'day' || type === 'date') return { type: 'int', logicalType: 'date' };
  if (type === 'string') return 'string';
  if (type === 'long') return 'long';
  throw new Error(`remote: no partition value type for ${type}`);
}

/** The `manifest_entry` schema for a spec of `fields` (source types from the table schema). */
export function manifestEntrySchema(
  fields: readonly PartitionField[],
  sourceType: (sourceId: number) => string,
): object {
  return {
    type: 'record',
    name: 'manifest_entry',
    fields: [
      { name: 'status', type: 'int', 'field-id': 0 },
      optional('snapshot_id', 'long', 1),
      optional('sequence_number', 'long', 3),
      optional('file_sequence_number', 'long', 4),
      {
        name: 'data_file',
        'field-id': 2,
        type: {
          type: 'record',
          name: 'r2',
          fields: [
            { name: 'content', type: 'int', 'field-id': 134 },
            { name: 'file_path', type: 'string', 'field-id': 100 },
            { name: 'file_format', type: 'string', 'field-id': 101 },
            {
              name: 'partition',
              'field-id': 102,
              type: {
                type: 'record',
                name: 'r102',
                fields: fields.map((f) =>
                  optional(
                    f.name,
                    partitionValueType(f.transform, sourceType(f['source-id'])),
                    f['field-id'],
                  ),
                ),
              },
            },
            { name: 'record_count', type: 'long', 'field-id': 103 },
            { name: 'file_size_in_bytes', type: 'long', 'field-id': 104 },
            intBinaryMap('lower_bounds', 125, 126, 127),
            intBinaryMap('upper_bounds', 128, 129, 130),
            optional('sort_order_id', 'int', 140),
          ],
        },
      },
    ],
  };
}

/** The `manifest_file` schema of a manifest list. */
export const MANIFEST_FILE_SCHEMA = {
  type: 'record',
  name: 'manifest_file',
  fields: [
    { name: 'manifest_path', type: 'string', 'field-id': 500 },
    { name: 'manifest_length', type: 'long', 'field-id': 501 },
    { name: 'partition_spec_id', type: 'int', 'field-id': 502 },
    { name: 'content', type: 'int', 'field-id': 517 },
    { name: 'sequence_number', type: 'long', 'field-id': 515 },
    { name: 'min_sequence_number', type: 'long', 'field-id': 516 },
    { name: 'added_snapshot_id', type: 'long', 'field-id': 503 },
    { name: 'added_files_count', type: 'int', 'field-id': 504 },
    { name: 'existing_files_count', type: 'int', 'field-id': 505 },
    { name: 'deleted_files_count', type: 'int', 'field-id': 506 },
    { name: 'added_rows_count', type: 'long', 'field-id': 512 },
    { name: 'existing_rows_count', type: 'long', 'field-id': 513 },
    { name: 'deleted_rows_count', type: 'long', 'field-id': 514 },
    optional(
      'partitions',
      {
        type: 'array',
        'element-id': 508,
        items: {
          type: 'record',
          name: 'r508',
          fields: [
            { name: 'contains_null', type: 'boolean', 'field-id': 509 },
            optional('contains_nan', 'boolean', 518),
            optional('lower_bound', 'bytes', 510),
            optional('upper_bound', 'bytes', 511),
          ],
        },
      },
      507,
    ),
    optional('key_metadata', 'bytes', 519),
  ],
} as const;
