import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsPlugin from 'ajv-formats';

/** Where `schemas fetch` stores the streaming schemas: <dataDir>/schemas/<type>_streaming.json. */
export function streamingSchemaPath(dataDir: string, searchType: string): string {
  return join(dataDir, 'schemas', `${searchType}_streaming.json`);
}

const SEARCH_TYPE_PATTERN = /^[a-z0-9_-]+$/;

interface CachedValidator {
  readonly mtimeMs: number;
  readonly validate: ValidateFunction;
}

/**
 * Validators of the stored streaming schemas, compiled once per schema file version (the file's
 * mtime), so a `schemas fetch` while the sink runs is picked up by the next load.
 * `validator(type)` is undefined when no schema is stored for that type (documents get NULL).
 */
export class SchemaValidators {
  readonly #dataDir: string;
  readonly #cache = new Map<string, CachedValidator>();

  constructor(dataDir: string) {
    this.#dataDir = dataDir;
  }

  validator(searchType: string | null): ValidateFunction | undefined {
    if (searchType === null || !SEARCH_TYPE_PATTERN.test(searchType)) return undefined;
    const path = streamingSchemaPath(this.#dataDir, searchType);
    if (!existsSync(path)) return undefined;
    const { mtimeMs } = statSync(path);
    const cached = this.#cache.get(searchType);
    if (cached && cached.mtimeMs === mtimeMs) return cached.validate;
    // One Ajv per schema: schemas may share an $id, and a fresh instance never conflicts.
    const ajv = new Ajv({ strict: false, allErrors: false });
    addFormats(ajv);
    const validate = ajv.compile(JSON.parse(readFileSync(path, 'utf8')) as object);
    this.#cache.set(searchType, { mtimeMs, validate });
    return validate;
  }
}

// ajv-formats is CommonJS: under NodeNext the default import is module.exports, whose
// `default` property is the plugin itself (typed so only there).
const addFormats = addFormatsPlugin.default;
