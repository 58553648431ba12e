import { mkdir, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { ApiClient, SearchType } from '../api/types.js';
import { streamingSchemaPath } from '../sink/schema-validators.js';
import { stringifyExact } from '../util/parse-json-exact.js';
import { UserError } from '../util/user-error.js';

const TYPES: readonly SearchType[] = ['social', 'editorial', 'broadcast'];

/** Fetches the three streaming JSON Schemas and writes each atomically where the sink looks for it. */
export async function fetchSchemas(client: ApiClient, dataDir: string): Promise<string[]> {
  const written: string[] = [];
  for (const type of TYPES) {
    const schema = await client.schema(type);
    if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
      throw new UserError(`GET /v3/schemas/${type}_streaming.json did not return a JSON Schema object`);
    }
    const file = streamingSchemaPath(dataDir, type);
    await mkdir(dirname(file), { recursive: true });
    // A big integer in the schema (an int64 bound) is a bigint: written digit for digit.
    await writeFile(`${file}.tmp`, `${stringifyExact(schema, 'schema', 2)}\n`);
    await rename(`${file}.tmp`, file);
    written.push(file);
  }
  return written;
}
