/** Iceberg's binary single-value serialization (format/spec.md, Appendix D), as hex. */

const DAY_MS = 86_400_000;

/** Days from 1970-01-01 of a YYYY-MM-DD date. */
export function epochDays(date: string): number {
  const ms = Date.parse(`${date}T00:00:00Z`);
  if (Number.isNaN(ms)) throw new Error(`remote: ${date} is not a date`);
  return Math.round(ms / DAY_MS);
}

/** A date: its days from 1970-01-01 as a 4-byte little-endian int. */
export function dateValue(days: number): string {
  const bytes = Buffer.alloc(4);
  bytes.writeInt32LE(days);
  return bytes.toString('hex');
}

/** The days of a serialized date. */
export function daysOfValue(hex: string): number {
  return Buffer.from(hex, 'hex').readInt32LE(0);
}

/** Microseconds from 1970-01-01 00:00:00 of a timestamp as DuckDB prints it (`2026-11-21 09:00:05.123456`). */
export function epochMicros(timestamp: string): bigint {
  const match = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2})(?:\.(\d{1,6}))?/.exec(timestamp);
  if (!match) throw new Error(`remote: ${timestamp} is not a timestamp`);
  const seconds = Date.parse(`${match[1]}T${match[2]}Z`);
  return BigInt(seconds) * 1000n + BigInt((match[3] ?? '').padEnd(6, '0'));
}

/** A timestamp: its microseconds as an 8-byte little-endian long. */
export function timestampValue(micros: bigint): string {
  const bytes = Buffer.alloc(8);
  bytes.writeBigInt64LE(micros);
  return bytes.toString('hex');
}

/** A column's bound as DuckDB prints it, serialized for its Iceberg type (date or timestamp). */
export function boundValue(type: string, printed: string): string | undefined {
  if (type === 'date') return dateValue(epochDays(printed));
  if (type === 'timestamp') return timestampValue(epochMicros(printed));
  return undefined;
}
