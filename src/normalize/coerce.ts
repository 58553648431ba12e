/**
 * Tolerant value coercion (api-profile.md: "Tolerate schema drift"): numbers may arrive as
 * numeric strings, metrics may be null, identifiers may be numbers. One bad value becomes
 * NULL; it never fails a page. A figure is never altered to fit: a value its column cannot
 * hold as sent is refused (NULL), counted in `refused` by field and reason, and reported once
 * at the run's end (docs/api.md, "Bad values").
 */
import { stringifyExact } from '../util/parse-json-exact.js';
import type { RefusedValues } from './refused-values.js';
import type { Value } from './rows.js';

/**
 * A numeric string: a decimal number as JSON writes one (RFC 8259's grammar), with JSON's
 * whitespace around it allowed. Not hexadecimal, binary, `Infinity`, `NaN`, `1_000`, `1e`.
 */
const JSON_NUMBER = /^[ \t\n\r]*-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?[ \t\n\r]*$/;
/** A JSON number that is an integer literal (no fraction, no exponent), whitespace around it allowed. */
const JSON_INTEGER = /^[ \t\n\r]*-?(?:0|[1-9]\d*)[ \t\n\r]*$/;
/** Integer literals this long always fit a double exactly (2^53 has 16 digits). */
const SAFE_DIGITS = 15;
/** The range of a DuckDB BIGINT, the count columns' type. */
const BIGINT_MIN = -(2n ** 63n);
const BIGINT_MAX = 2n ** 63n - 1n;

const NOT_A_NUMBER = 'not a number';
const NOT_DECIMAL = 'not a decimal number';
const NOT_WHOLE = 'not a whole number';
const PAST_BIGINT = 'beyond the BIGINT range';
const PAST_DOUBLE = 'an integer too large for a DOUBLE to hold exactly';
const PAST_DOUBLE_RANGE = 'beyond the DOUBLE range';
const PAST_EXACT = 'too large to be exact';

/**
 * A DOUBLE column's value (rates, money, scores, stat values): a number or a numeric string;
 * null when absent or null. Refused: anything else, and an integer a double cannot hold exactly
 * (its nearest double would alter the count). A decimal fraction is kept as the nearest double,
 * as a DOUBLE column does with any fraction.
 */
export function toNumber(value: unknown, field: string, refused?: RefusedValues): number | null {
  if (typeof value === 'number')
    return Number.isFinite(value) ? value : refuse(refused, field, PAST_DOUBLE_RANGE, value);
  if (value === null || value === undefined) return null;
  if (typeof value === 'bigint') {
    const number = Number(value);
    return BigInt(number) === value ? number : refuse(refused, field, PAST_DOUBLE, value);
  }
  if (typeof value !== 'string') return refuse(refused, field, NOT_A_NUMBER, value);
  if (!JSON_NUMBER.test(value)) return refuse(refused, field, NOT_DECIMAL, value);
  const number = Number(value);
  if (!Number.isFinite(number)) return refuse(refused, field, PAST_DOUBLE_RANGE, value);
  if (Number.isSafeInteger(number) || !JSON_INTEGER.test(value)) return number;
  return BigInt(number) === BigInt(value.trim()) ? number : refuse(refused, field, PAST_DOUBLE, value);
}

/**
 * A count (BIGINT column): a whole number, as a number, or as decimal text beyond 2^53 (exact:
 * staging converts it to a BIGINT); null when absent or null. Refused, never rounded: a
 * fraction (47177.5), a non-decimal string, an integer outside BIGINT, and a double past 2^53
 * (from an exponent literal such as 1e17: which integer it meant is lost).
 */
export function toCount(value: unknown, field: string, refused?: RefusedValues): number | string | null {
  if (typeof value === 'number') {
    if (Number.isSafeInteger(value)) return value;
    const whole = Number.isInteger(value) || !Number.isFinite(value);
    return refuse(refused, field, whole ? PAST_EXACT : NOT_WHOLE, value);
  }
  if (value === null || value === undefined) return null;
  if (typeof value === 'bigint') return bigCount(value, field, refused);
  if (typeof value !== 'string') return refuse(refused, field, NOT_A_NUMBER, value);
  if (JSON_INTEGER.test(value)) {
    const text = value.trim();
    const digits = text.startsWith('-') ? text.length - 1 : text.length;
    return digits <= SAFE_DIGITS ? Number(text) : bigCount(BigInt(text), field, refused);
  }
  if (!JSON_NUMBER.test(value)) return refuse(refused, field, NOT_DECIMAL, value);
  // A fraction or an exponent that still writes a whole number: "12.0", "1e3".
  const number = Number(value);
  if (Number.isSafeInteger(number)) return number;
  const whole = Number.isInteger(number) || !Number.isFinite(number);
  return refuse(refused, field, whole ? PAST_EXACT : NOT_WHOLE, value);
}

/** An exact integer as a count: a number when safe, its decimal text up to the BIGINT bounds. */
function bigCount(value: bigint, field: string, refused: RefusedValues | undefined): number | string | null {
  if (value < BIGINT_MIN || value > BIGINT_MAX) return refuse(refused, field, PAST_BIGINT, value);
  const number = Number(value);
  return Number.isSafeInteger(number) ? number : String(value);
}

function refuse(refused: RefusedValues | undefined, field: string, reason: string, value: unknown): null {
  return refused ? refused.refuse(field, reason, value) : null;
}

/** Identifiers are text to the warehouse, even when the API sends numbers. */
export function toId(value: unknown): string | null {
  if (typeof value === 'string') return value === '' ? null : value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value === 'bigint') return String(value);
  return null;
}

export function toText(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint')
    return String(value);
  return null;
}

/**
 * An ISO-8601 timestamp (UTC), or null when absent, unparsable, or outside the years 0000 to
 * 9999 (ISO-8601 writes those with a sign and six digits, which no column here takes).
 */
export function toTimestamp(value: unknown): string | null {
  if (typeof value !== 'string' && typeof value !== 'number') return null;
  if (typeof value === 'string' && !calendarDay(value)) return null;
  const date = new Date(typeof value === 'number' ? value : Date.parse(value));
  // Past Date's range (±8.64e15 ms) the time is invalid, and toISOString would throw.
  if (Number.isNaN(date.getTime())) return null;
  const year = date.getUTCFullYear();
  return year < 0 || year > 9999 ? null : date.toISOString();
}

const LEADING_DATE = /^\s*(\d{4})-(\d{2})-(\d{2})/;

/** False for a text starting with a day its month has not (Date.parse reads 2026-02-30 as March 2). */
function calendarDay(text: string): boolean {
  const match = LEADING_DATE.exec(text);
  if (!match) return true;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const last = new Date(Date.UTC(2000, month, 0)).getUTCDate() - (month === 2 && !leapYear(year) ? 1 : 0);
  return month >= 1 && month <= 12 && day >= 1 && day <= last;
}

function leapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
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

/**
 * A raw JSON column's text: the record as sent, big integers digit for digit. Throws
 * JsonTooDeepError for a value nested past what a reply may hold (the API client refuses
 * such replies first).
 */
export const json = (value: unknown): Value => stringifyExact(value, 'raw JSON');
