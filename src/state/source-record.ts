/**
 * The API account a data directory's figures come from, kept in the state database's `meta`
 * table at the first sync: a warehouse holds the history of one account, and a sync against
 * another (a second key, another base URL, the simulator) must not mix two accounts' figures
 * into it. The account is named as the API identifies it, by its workspace ids, never by its
 * key: a hash of a key that may be short or guessable can be reversed by trying candidates,
 * and a rotated key would look like another account.
 */
import { eq } from './drizzle.js';
import { meta } from './schema.js';
import { openStateDbReadOnly, type StateDb } from './state-db.js';

const KEY = 'sync_source';

export interface SyncSource {
  /** The base URL without credentials, query or trailing slash (sourceBaseUrl). */
  readonly baseUrl: string;
  /** The workspace ids the API lists for the key, sorted. */
  readonly workspaces: readonly string[];
  /** Set by the demo: its embedded simulator listens on a new port at each start. */
  readonly demo?: boolean;
}

export interface SourceRecord extends SyncSource {
  /** ISO-8601 UTC: when this source was first recorded (or adopted with --force-source). */
  readonly recordedAt: string;
}

/** The base URL as it is recorded and compared: scheme, host, port and path; no user info. */
export function sourceBaseUrl(raw: string): string {
  const url = new URL(raw);
  return `${url.protocol}//${url.host}${url.pathname.replace(/\/+$/, '')}`;
}

/** The recorded source, read from an open state database; undefined before the first sync. */
export function loadSourceRecord(state: Pick<StateDb, 'db'>): SourceRecord | undefined {
  const row = state.db.select().from(meta).where(eq(meta.key, KEY)).get();
  return row ? (JSON.parse(row.value) as SourceRecord) : undefined;
}

/** The recorded source, the state database opened read-only (nothing created): undefined when none. */
export function readSourceRecord(dataDir: string): SourceRecord | undefined {
  const state = openStateDbReadOnly(dataDir);
  if (!state) return undefined;
  try {
    const hasMeta = state.sqlite
      .prepare("select 1 from sqlite_master where type = 'table' and name = 'meta'")
      .get();
    return hasMeta ? loadSourceRecord(state) : undefined;
  } finally {
    state.close();
  }
}

export function saveSourceRecord(state: StateDb, record: SourceRecord, now: Date): void {
  const value = JSON.stringify(record);
  const updatedAt = now.toISOString();
  state.db
    .insert(meta)
    .values({ key: KEY, value, updatedAt })
    .onConflictDoUpdate({ target: meta.key, set: { value, updatedAt } })
    .run();
}

/** `http://127.0.0.1:8080 (workspaces 5f1e0c2a…, 9a8b7c6d…)`: a source in one short phrase. */
export function describeSource(source: SyncSource): string {
  const shown = source.workspaces.slice(0, 2).map((id) => (id.length > 12 ? `${id.slice(0, 8)}…` : id));
  const more = source.workspaces.length > 2 ? ` and ${source.workspaces.length - 2} more` : '';
  const account = source.workspaces.length
    ? `workspace${source.workspaces.length > 1 ? 's' : ''} ${shown.join(', ')}${more}`
    : 'no workspaces';
  return `${source.baseUrl} (${source.demo ? "the demo's simulator, " : ''}${account})`;
}
