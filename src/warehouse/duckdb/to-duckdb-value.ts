import {
  DuckDBDateValue,
  DuckDBTimestampValue,
  type DuckDBType,
  DuckDBTypeId,
  type DuckDBValue,
} from '@duckdb/node-api';
import type { Value } from '../../contracts/rows.js';

/** The column types the migrations use; JSON is a VARCHAR with an alias. */
export type ColumnKind = 'varchar' | 'bigint' | 'integer' | 'double' | 'date' | 'timestamp' | 'boolean';

/**
 * A value ready for a column: text for VARCHAR, a number (or a bigint beyond 2^53) for
 * BIGINT, days since 1970-01-01 for DATE, microseconds since the epoch for TIMESTAMP.
 */
export type RawValue = string | number | bigint | boolean | null;

/** Converts one row value (rows.ts contract) for a column; throws TypeError when it cannot. */
export type ValueConverter = (value: Value) => RawValue;

const MS_PER_DAY = 86_400_000;
const DATE_PREFIX = /^(\d{4})-(\d{2})-(\d{2})/;
/** ISO-8601 date-time; a time without offset is UTC (the warehouse stores UTC times). */
const ISO_TIMESTAMP =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i;
const INTEGER_TEXT = /^[+-]?\d+$/;

export function columnKind(type: DuckDBType): ColumnKind {
  switch (type.typeId) {
    case DuckDBTypeId.VARCHAR:
      return 'varchar';
    case DuckDBTypeId.BIGINT:
      return 'bigint';
    case DuckDBTypeId.INTEGER:
      return 'integer';
    case DuckDBTypeId.DOUBLE:
      return 'double';
    case DuckDBTypeId.DATE:
      return 'date';
    case DuckDBTypeId.TIMESTAMP:
      return 'timestamp';
    case DuckDBTypeId.BOOLEAN:
      return 'boolean';
    default:
      throw new TypeError(`warehouse: no loader for column type ${type.toString()}`);
  }
}

function describe(value: Value): string {
  const text = typeof value === 'string' ? JSON.stringify(value.slice(0, 40)) : String(value);
  return `${typeof value} ${text}`;
}

function fail(type: string, value: Value): never {
  throw new TypeError(`expected a value for ${type}, got ${describe(value)}`);
}

function safeInteger(value: number): number | bigint {
  const rounded = Math.round(value);
  return Number.isSafeInteger(rounded) ? rounded : BigInt(rounded);
}

function toBigInt(value: Value): number | bigint | null {
  if (value === null) return null;
  if (typeof value === 'number') return Number.isFinite(value) ? safeInteger(value) : null;
  if (typeof value === 'boolean') return value ? 1 : 0;
  const text = value.trim();
  if (text === '') return null;
  if (INTEGER_TEXT.test(text)) {
    const number = Number(text);
    return Number.isSafeInteger(number) ? number : BigInt(text);
  }
  const number = Number(text);
  return Number.isFinite(number) ? safeInteger(number) : fail('BIGINT', value);
}

function toInteger(value: Value): number | null {
  const big = toBigInt(value);
  return big === null ? null : Number(big);
}

function toDouble(value: Value): number | null {
  if (value === null) return null;
  if (typeof value === 'number') return value;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (value.trim() === '') return null;
  const number = Number(value);
  return Number.isNaN(number) ? fail('DOUBLE', value) : number;
}

function toVarchar(value: Value): string | null {
  return value === null ? null : String(value);
}

function toBoolean(value: Value): boolean | null {
  if (value === null || typeof value === 'boolean') return value;
  if (typeof value === 'number') return value !== 0;
  const text = value.trim().toLowerCase();
  if (text === 'true' || text === 't' || text === '1') return true;
  if (text === 'false' || text === 'f' || text === '0') return false;
  return text === '' ? null : fail('BOOLEAN', value);
}

/** Date.UTC, but for every year: Date.UTC reads years 0 to 99 as 1900 to 1999. */
function utcMs(year: number, month: number, day: number, hours = 0, minutes = 0, seconds = 0): number {
  const date = new Date(0);
  date.setUTCFullYear(year, month, day);
  date.setUTCHours(hours, minutes, seconds, 0);
  return date.getTime();
}

/** Days since 1970-01-01 of a YYYY-MM-DD text (or the date part of a timestamp). */
function toDays(value: Value): number | null {
  if (value === null) return null;
  if (typeof value !== 'string') return fail('DATE', value);
  const match = DATE_PREFIX.exec(value);
  if (!match) return value.trim() === '' ? null : fail('DATE', value);
  return utcMs(Number(match[1]), Number(match[2]) - 1, Number(match[3])) / MS_PER_DAY;
}

/** Microseconds since the epoch of an ISO-8601 text (fractions kept to the microsecond). */
export function isoToMicros(text: string): number | null {
  const match = ISO_TIMESTAMP.exec(text.trim());
  if (!match) return null;
  const [, y, mo, d, h, mi, s, fraction, offset] = match;
  const ms = utcMs(Number(y), Number(mo) - 1, Number(d), Number(h ?? 0), Number(mi ?? 0), Number(s ?? 0));
  let offsetMinutes = 0;
  if (offset && offset.toUpperCase() !== 'Z') {
    const digits = offset.replace(':', '');
    const sign = digits.startsWith('-') ? -1 : 1;
    offsetMinutes = sign * (Number(digits.slice(1, 3)) * 60 + Number(digits.slice(3, 5) || 0));
  }
  return (ms - offsetMinutes * 60_000) * 1000 + Number((fraction ?? '').padEnd(6, '0').slice(0, 6) || '0');
}

function toMicros(value: Value): number | bigint | null {
  if (value === null) return null;
  // A number is taken as epoch milliseconds (what Date.now() gives).
  if (typeof value === 'number') return safeInteger(value * 1000);
  if (typeof value !== 'string') return fail('TIMESTAMP', value);
  if (value.trim() === '') return null;
  const micros = isoToMicros(value);
  return micros === null ? fail('TIMESTAMP', value) : safeInteger(micros);
}

/**
 * Wraps a converter of text with a one-entry cache: a page's rows repeat the same
 * snapshot date and seen-at time, and parsing them once per page instead of once per row
 * is a measurable share of the load.
 */
function lastValueCached<T>(convert: (value: Value) => T): (value: Value) => T {
  let lastInput: Value | undefined;
  let lastOutput: T;
  return (value) => {
    if (value === lastInput) return lastOutput;
    const output = convert(value);
    lastInput = value;
    lastOutput = output;
    return output;
  };
}

/** The converter for a column kind (a fresh one per column: the date caches are per column). */
export function converterFor(kind: ColumnKind): ValueConverter {
  switch (kind) {
    case 'varchar':
      return toVarchar;
    case 'bigint':
      return toBigInt;
    case 'integer':
      return toInteger;
    case 'double':
      return toDouble;
    case 'date':
      return lastValueCached(toDays);
    case 'timestamp':
      return lastValueCached(toMicros);
    case 'boolean':
      return toBoolean;
  }
}

/** The DuckDBValue of a converted value, for bound parameters (prepared statements, tests). */
export function toDuckDBValue(kind: ColumnKind, raw: RawValue): DuckDBValue {
  if (raw === null) return null;
  switch (kind) {
    case 'bigint':
      return BigInt(raw as number | bigint);
    case 'date':
      return new DuckDBDateValue(raw as number);
    case 'timestamp':
      return new DuckDBTimestampValue(BigInt(raw as number | bigint));
    default:
      return raw as string | number | boolean;
  }
}
