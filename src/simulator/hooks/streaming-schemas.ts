/**
 * JSON Schema (draft-07) documents served at GET /v3/schemas/<type>_streaming.json. They
 * describe exactly what document-generator.ts produces (see stream-document.ts), and allow
 * additional properties everywhere because receivers must keep unknown fields.
 * No `$id`: receivers may compile a schema more than once into one validator instance.
 */
import type { SearchType } from './searches.js';

export type JsonSchema = Readonly<Record<string, unknown>>;

const DRAFT_07 = 'http://json-schema.org/draft-07/schema#';

const nonEmptyString = { type: 'string', minLength: 1 } as const;
const dateTime = { type: 'string', format: 'date-time' } as const;
const count = { type: 'integer', minimum: 0 } as const;

function object(properties: Record<string, unknown>): Record<string, unknown> {
  return { type: 'object', required: Object.keys(properties), properties, additionalProperties: true };
}

function baseProperties(type: SearchType): Record<string, unknown> {
  return {
    id: nonEmptyString,
    published_date: dateTime,
    indexed_date: dateTime,
    url: { type: 'string', format: 'uri' },
    external_id: nonEmptyString,
    source: object({
      id: nonEmptyString,
      name: nonEmptyString,
      information_type: { type: 'string', const: type },
    }),
    content: object({ title: { type: 'string' }, opening_text: { type: 'string' } }),
    language: { type: 'string', pattern: '^[a-z]{2}$', description: 'ISO 639-1 code' },
    country: { type: 'string', pattern: '^[A-Z]{2}$', description: 'ISO 3166-1 alpha-2 code' },
  };
}

const TYPE_PROPERTIES: Readonly<Record<SearchType, Record<string, unknown>>> = {
  social: {
    author: object({ handle: nonEmptyString, name: { type: 'string' } }),
    metrics: object({ likes: count, comments: count, shares: count }),
  },
  editorial: { publisher: nonEmptyString },
  broadcast: { station: nonEmptyString, air_time: dateTime },
};

const TITLES: Readonly<Record<SearchType, string>> = {
  social: 'Social Streaming document',
  editorial: 'Editorial Streaming document',
  broadcast: 'Broadcast Streaming document',
};

/** The schema of one pushed document of `type`. A fresh object each call: callers may mutate it. */
export function streamingSchema(type: SearchType): JsonSchema {
  return {
    $schema: DRAFT_07,
    title: TITLES[type],
    description: `One document pushed to a hook of a ${type} search. Unknown fields may appear and must be kept.`,
    ...structuredClone(object({ ...baseProperties(type), ...TYPE_PROPERTIES[type] })),
  };
}
