/**
 * Reading the remote lake's tables as an independent engine does: icebird (its own Avro and
 * hyparquet) against moto. icebird turns s3:// into AWS's host, so its fetches are pointed at
 * the test server; rows of both sides are normalized to compare them.
 */
import { icebergRead } from 'icebird';

/** Runs `work` with global fetch sending `https://<bucket>.s3.amazonaws.com/<key>` to moto's path-style URL. */
export async function withFetchTo<T>(motoUrl: string, work: () => Promise<T>): Promise<T> {
  const original = globalThis.fetch;
  globalThis.fetch = ((input: string | URL | Request, init?: RequestInit) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const match = /^https:\/\/([^/]+)\.s3\.amazonaws\.com\/(.*)$/.exec(url);
    return original(match ? `${motoUrl}/${match[1]}/${match[2]}` : input, init);
  }) as typeof fetch;
  try {
    return await work();
  } finally {
    globalThis.fetch = original;
  }
}

/** A table's rows at a metadata version (undefined: the current one, by version-hint.text). */
export function icebergRows(tableUrl: string, metadataFileName?: string): Promise<Record<string, unknown>[]> {
  return icebergRead({ tableUrl, ...(metadataFileName ? { metadataFileName } : {}) });
}

/** One comparable form of a value read by DuckDB (plain) or by hyparquet. */
export function normalizeValue(value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (typeof value === 'bigint') return Number(value);
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'string') {
    if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return `${value}T00:00:00.000Z`;
    const micros = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3})\d*Z$/.exec(value);
    if (micros) return `${micros[1]}Z`;
    if (/^\s*[[{]/.test(value)) {
      try {
        return canonical(JSON.parse(value));
      } catch {}
    }
    return value;
  }
  if (typeof value === 'object') return canonical(value);
  return value;
}

function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => a.localeCompare(b)))
      : typeof v === 'bigint'
        ? Number(v)
        : v,
  );
}

/** Rows as sorted strings of their normalized columns (`columns` only), to compare as multisets. */
export function rowSet(rows: readonly Record<string, unknown>[], columns: readonly string[]): string[] {
  return rows.map((row) => JSON.stringify(columns.map((c) => normalizeValue(row[c])))).sort();
}
