/**
 * Tolerant value coercion (api-profile.md: "Tolerate schema drift"): numbers may arrive as
 * numeric strings, metrics may be null, identifiers may be numbers. One bad value becomes
 * NULL; it never fails a page.
 */
import type { Value } from './rows.js';

/** A number, a numeric string, else null. */
export function toNumber(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'string' && value.trim() !== '') {
    const n = Number(value);
    return Number.isFinite(n) ? n : null;
  }
  return null;
}

/** A count (BIGINT column): fractional values are rounded to the nearest integer. */
export function toCount(value: unknown): number | null {
  const n = toNumber(value);
  return n === null ? null : Math.round(n);
}

/** Identifiers are text to the warehouse, even when the API sends numbers. */
export function toId(value: unknown): string | null {
  if (typeof value === 'string') return value === '' ? null : value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return null;
}

export function toText(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return null;
}

/** An ISO-8601 timestamp (UTC), or null when absent or unparsable. */
export function toTimestamp(value: unknown): string | null {
  if (typeof value !== 'string' && typeof value !== 'number') return null;
  const ms = typeof value === 'number' ? value : Date.parse(value);
  return Number.isFinite(ms) ? new Date(ms).toISOString() : null;
}

/** A YYYY-MM-DD date, or null. */
export function toDate(value: unknown): string | null {
  const ts = toTimestamp(value);
  return ts === null ? null : ts.slice(0, 10);
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A nested object, or undefined when absent, null or not an object. */
export function objectAt(record: Record<string, unknown>, key: string): Record<string, unknown> | undefined {
  const value = record[key];
  return isRecord(value) ? value : undefined;
}

export const json = (value: unknown): Value => JSON.stringify(value);
