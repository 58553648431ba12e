import type { RawRecord } from './types.js';

/** A JSON object (not an array, not null): what every API body and record should be. */
export function isRecord(value: unknown): value is RawRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
