/**
 * Reading an Avro object container file with avro-js (the Apache Avro project's JavaScript
 * library), an implementation independent of the writer's (avsc): its records and header.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
// avro-js's index also loads a deprecated validator that needs a package it does not depend
// on; its container files are read by lib/files.js alone. It ships no type declarations.
// @ts-expect-error
import avro from 'avro-js/lib/files.js';

export interface AvroRead {
  readonly schema: Record<string, unknown>;
  readonly meta: Record<string, string>;
  readonly records: Record<string, unknown>[];
}

/** Reads `bytes` (written to a file in `dir` first: avro-js decodes files). */
export function readAvroWithAvroJs(bytes: Buffer, dir: string, name: string): Promise<AvroRead> {
  const path = join(dir, name);
  writeFileSync(path, bytes);
  return new Promise((resolve, reject) => {
    const records: Record<string, unknown>[] = [];
    let meta: Record<string, string> = {};
    avro
      .createFileDecoder(path)
      .on('metadata', (_type: unknown, _codec: unknown, header: { meta: Record<string, Buffer> }) => {
        meta = Object.fromEntries(Object.entries(header.meta).map(([k, v]) => [k, v.toString()]));
      })
      .on('data', (record: Record<string, unknown>) => records.push(record))
      .on('end', () => resolve({ schema: JSON.parse(meta['avro.schema'] ?? '{}'), meta, records }))
      .on('error', reject);
  });
}

/** The `field-id` of each field of a record schema (and of nested records, by path `a.b`). */
export function fieldIds(schema: unknown, prefix = ''): Record<string, number> {
  const out: Record<string, number> = {};
  const record = schema as {
    type?: unknown;
    fields?: { name: string; type: unknown; 'field-id'?: number }[];
  };
  for (const field of record.fields ?? []) {
    const path = `${prefix}${field.name}`;
    if (field['field-id'] !== undefined) out[path] = field['field-id'];
    for (const inner of [field.type, ...(Array.isArray(field.type) ? field.type : [])]) {
      const nested = inner as { type?: string; items?: unknown };
      if (nested && typeof nested === 'object' && nested.type === 'record')
        Object.assign(out, fieldIds(nested, `${path}.`));
      if (nested && typeof nested === 'object' && nested.type === 'array' && typeof nested.items === 'object')
        Object.assign(out, fieldIds(nested.items, `${path}.`));
    }
  }
  return out;
}

/** A union value as avro-js reads it (`{ "long": 3 }`, `{ "array": [...] }`, null) as its value. */
export function unwrap<T>(value: unknown): T {
  if (value && typeof value === 'object' && !Array.isArray(value) && !Buffer.isBuffer(value)) {
    const keys = Object.keys(value);
    if (keys.length === 1 && ['array', 'bytes', 'long', 'int', 'boolean', 'string', 'map'].includes(keys[0]!))
      return (value as Record<string, unknown>)[keys[0]!] as T;
  }
  return value as T;
}
