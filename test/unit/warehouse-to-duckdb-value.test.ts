import { DuckDBDateValue, DuckDBTimestampValue } from '@duckdb/node-api';
import { describe, expect, it } from 'vitest';
import { converterFor, isoToMicros, toDuckDBValue } from '../../src/warehouse/duckdb/to-duckdb-value.js';

describe('converterFor', () => {
  it('varchar (and JSON, a VARCHAR alias) takes text and turns numbers into their text', () => {
    const convert = converterFor('varchar');
    expect(convert('abc')).toBe('abc');
    expect(convert(12)).toBe('12');
    expect(convert(true)).toBe('true');
    expect(convert(null)).toBeNull();
  });

  it('bigint takes integers, rounds doubles, parses numeric strings, refuses text', () => {
    const convert = converterFor('bigint');
    expect(convert(42)).toBe(42);
    expect(convert(2.6)).toBe(3);
    expect(convert('-7')).toBe(-7);
    expect(convert('9007199254740993')).toBe(9007199254740993n);
    expect(convert('1e3')).toBe(1000);
    expect(convert('')).toBeNull();
    expect(() => convert('many')).toThrow(/BIGINT/);
  });

  it('double takes numbers and numeric strings', () => {
    const convert = converterFor('double');
    expect(convert(0.25)).toBe(0.25);
    expect(convert('12.5')).toBe(12.5);
    expect(() => convert('n/a')).toThrow(/DOUBLE/);
  });

  it('date takes YYYY-MM-DD and the date part of a timestamp, as days since 1970', () => {
    const convert = converterFor('date');
    expect(convert('1970-01-02')).toBe(1);
    expect(convert('1969-12-31')).toBe(-1);
    expect(convert('2026-11-20T23:59:00Z')).toBe(convert('2026-11-20'));
    expect(() => convert(5)).toThrow(/DATE/);
  });

  it('timestamp reads ISO-8601 as UTC, applies offsets and keeps microseconds', () => {
    const convert = converterFor('timestamp');
    expect(convert('1970-01-01T00:00:01Z')).toBe(1_000_000);
    expect(convert('1970-01-01T00:00:01')).toBe(1_000_000);
    expect(convert('1970-01-01 01:00:01+01:00')).toBe(1_000_000);
    expect(convert('1970-01-01T00:00:00.000123Z')).toBe(123);
    expect(convert(1500)).toBe(1_500_000);
    expect(() => convert('yesterday')).toThrow(/TIMESTAMP/);
    expect(isoToMicros('2026-11-20')).toBe(Date.UTC(2026, 10, 20) * 1000);
  });

  it('boolean takes booleans, 0/1 and true/false text', () => {
    const convert = converterFor('boolean');
    expect(convert(true)).toBe(true);
    expect(convert(0)).toBe(false);
    expect(convert('TRUE')).toBe(true);
    expect(() => convert('maybe')).toThrow(/BOOLEAN/);
  });
});

describe('toDuckDBValue', () => {
  it('wraps converted values for bound parameters', () => {
    expect(toDuckDBValue('bigint', 5)).toBe(5n);
    expect(toDuckDBValue('date', 1)).toEqual(new DuckDBDateValue(1));
    expect(toDuckDBValue('timestamp', 1_000_000)).toEqual(new DuckDBTimestampValue(1_000_000n));
    expect(toDuckDBValue('varchar', 'x')).toBe('x');
    expect(toDuckDBValue('double', null)).toBeNull();
  });
});

describe('years before 100', () => {
  it('are stored as written, not read as 1900 to 1999', () => {
    expect(isoToMicros('0050-06-01T00:00:00Z')).toBe(Date.parse('0050-06-01T00:00:00Z') * 1000);
    expect(isoToMicros('0000-01-01T12:30:00Z')).toBe(Date.parse('0000-01-01T12:30:00Z') * 1000);
  });
});
