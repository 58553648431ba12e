/** A table's Iceberg schema, derived from the lake table's columns (the migrations' types). */

export interface IcebergField {
  readonly id: number;
  readonly name: string;
  readonly required: boolean;
  readonly type: string;
}

export interface IcebergSchema {
  readonly type: 'struct';
  readonly 'schema-id': number;
  readonly fields: readonly IcebergField[];
}

/** The Iceberg type of a DuckDB column type as DuckDB writes it to Parquet. */
export function icebergType(duckdb: string): string {
  const type = duckdb.toUpperCase();
  const decimal = /^DECIMAL\((\d+),\s*(\d+)\)$/.exec(type);
  if (decimal) return `decimal(${decimal[1]},${decimal[2]})`;
  const found = TYPES[type];
  if (!found) throw new Error(`remote: no Iceberg type for the column type ${duckdb}`);
  return found;
}

/**
 * VARCHAR and JSON are UTF-8 strings in Parquet; TIMESTAMP is written by DuckDB as
 * TIMESTAMP_MICROS with isAdjustedToUTC false (Iceberg's timestamp); the small integers are
 * INT32 (Iceberg's int).
 */
const TYPES: Readonly<Record<string, string>> = {
  VARCHAR: 'string',
  JSON: 'string',
  BOOLEAN: 'boolean',
  TINYINT: 'int',
  SMALLINT: 'int',
  INTEGER: 'int',
  BIGINT: 'long',
  FLOAT: 'float',
  DOUBLE: 'double',
  DATE: 'date',
  TIMESTAMP: 'timestamp',
  'TIMESTAMP WITH TIME ZONE': 'timestamptz',
  BLOB: 'binary',
};

/**
 * The schema for `columns`: every column that `current` has keeps its field id (ids are how
 * Iceberg readers match columns, so they never change); a new column gets the next id after
 * `lastColumnId`. Undefined when `current` already is that schema. Every field is optional:
 * files written before a migration added a column lack it, and read it as null.
 */
export function evolveSchema(
  columns: readonly { readonly name: string; readonly type: string }[],
  current: IcebergSchema | undefined,
  lastColumnId: number,
): { schema: IcebergSchema; lastColumnId: number } | undefined {
  const byName = new Map((current?.fields ?? []).map((f) => [f.name, f]));
  let last = lastColumnId;
  const fields: IcebergField[] = [...(current?.fields ?? [])];
  for (const column of columns) {
    if (byName.has(column.name)) continue;
    last += 1;
    fields.push({ id: last, name: column.name, required: false, type: icebergType(column.type) });
  }
  if (current && fields.length === current.fields.length) return undefined;
  return {
    schema: { type: 'struct', 'schema-id': current ? current['schema-id'] + 1 : 0, fields },
    lastColumnId: last,
  };
}

/**
 * The table property `schema.name-mapping.default`: the lake's Parquet files carry no field
 * ids (they are written before, and apart from, any remote), so readers match their columns by
 * name through this mapping (the spec's rule for files without ids).
 */
export function nameMapping(schema: IcebergSchema): string {
  return JSON.stringify(schema.fields.map((f) => ({ 'field-id': f.id, names: [f.name] })));
}

/** The field id of `name` in `schema`. */
export function fieldId(schema: IcebergSchema, name: string): number | undefined {
  return schema.fields.find((f) => f.name === name)?.id;
}
