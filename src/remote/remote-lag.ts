import { parseRemoteUrl, type RemoteConfig } from '../config/remote-config.js';
import { type LiveLakeTable, liveLakeFiles } from '../warehouse/index.js';
import { liveFiles } from './commit-table.js';
import { currentSnapshot } from './iceberg-model.js';
import { parquetRowCount } from './parquet-row-count.js';
import type { RemoteTable } from './read-remote-table.js';
import { TablePaths } from './remote-paths.js';
import { listStates, loadState, readWriterId } from './remote-state.js';

/** A table of the remote as this data directory last committed it, against the local lake now. */
export interface TableLag {
  readonly table: string;
  /** The remote table's metadata version (0: never committed from here). */
  readonly version: number;
  /** Its current snapshot's id and commit time (epoch ms); undefined before its first commit. */
  readonly snapshotId: number | undefined;
  readonly committedAt: number | undefined;
  /** The local lake has a publish the remote has not committed (files to add or to remove). */
  readonly behind: boolean;
  /** Local data files the remote lacks (empty files, never uploaded, not counted). */
  readonly notCommitted: number;
  /** This data directory's files the remote still lists that the local lake no longer has. */
  readonly notRemoved: number;
  /** Epoch ms of the oldest local publish the remote lacks; undefined when not behind. */
  readonly behindSince: number | undefined;
}

/** A remote against the local lake, per table. */
export interface RemoteLag {
  readonly url: string;
  /** Every table with local data files or a commit, in the registry's order. */
  readonly tables: readonly TableLag[];
}

/**
 * How far `url`'s remote lags the local lake, per table, from what this data directory last
 * committed there (its state file, remote-state.ts) and the lake's links: no request to the
 * store, no DuckDB, nothing written. A table is behind when its live files (those with rows)
 * are not exactly this data directory's files of the remote's current snapshot: the next
 * commit has work to do. Other writers' files do not count.
 */
export async function remoteLag(
  dataDir: string,
  url: string,
  lake?: readonly LiveLakeTable[],
): Promise<RemoteLag> {
  const { bucket, prefix } = parseRemoteUrl(url, 'remote');
  const remote: RemoteConfig = { url, bucket, prefix };
  const state = loadState(dataDir, url);
  const writer = readWriterId(dataDir);
  const tables: TableLag[] = [];
  for (const local of lake ?? (await liveLakeFiles(dataDir))) {
    const known = state.tables[local.table];
    if (known || local.files.length > 0)
      tables.push(await tableLag(new TablePaths(remote, local.table), local, known, writer));
  }
  return { url, tables };
}

/**
 * The remotes `status` reports: the configured one (if any) first, then every other one this
 * data directory has committed to (a remote since removed from the config, say).
 */
export async function remoteLags(dataDir: string, configured: string | undefined): Promise<RemoteLag[]> {
  const urls = [...new Set([...(configured ? [configured] : []), ...listStates(dataDir).map((s) => s.url)])];
  if (urls.length === 0) return [];
  const lake = await liveLakeFiles(dataDir);
  return Promise.all(urls.map((url) => remoteLag(dataDir, url, lake)));
}

async function tableLag(
  paths: TablePaths,
  local: LiveLakeTable,
  known: RemoteTable | undefined,
  writer: string | undefined,
): Promise<TableLag> {
  const snapshot = currentSnapshot(known?.metadata);
  const live = known ? liveFiles(known.manifests) : new Map();
  const mine = new Set<string>();
  const unknown = local.files.filter((file) => {
    const uri = writer ? paths.uri(paths.dataKey(file.place, writer)) : undefined;
    if (uri) mine.add(uri);
    return !(uri && live.has(uri));
  });
  // Only the files the remote lacks are opened (a footer each): none when it is current.
  const empty: boolean[] = [];
  for (let at = 0; at < unknown.length; at += FOOTERS_AT_ONCE)
    empty.push(...(await Promise.all(unknown.slice(at, at + FOOTERS_AT_ONCE).map((f) => isEmpty(f.path)))));
  const missing = unknown.filter((_, i) => !empty[i]);
  const notCommitted = missing.length;
  let since =
    missing.length > 0 ? Math.min(...missing.map((file) => file.writtenAt ?? local.publishedAt)) : undefined;
  let notRemoved = 0;
  if (writer)
    for (const uri of live.keys()) if (paths.isWriters(uri, writer) && !mine.has(uri)) notRemoved += 1;
  // Removals only: the newest local version removed them (or, none left, after the last commit).
  if (notRemoved > 0 && since === undefined)
    since = local.publishedAt || snapshot?.['timestamp-ms'] || Date.now();
  const behind = notCommitted > 0 || notRemoved > 0;
  return {
    table: local.table,
    version: known?.version ?? 0,
    snapshotId: snapshot?.['snapshot-id'],
    committedAt: snapshot?.['timestamp-ms'],
    behind,
    notCommitted,
    notRemoved,
    behindSince: behind ? since : undefined,
  };
}

/** Footers read at once: the loop handles each batch's replies between other work (a sink's acknowledgements). */
const FOOTERS_AT_ONCE = 16;

/**
 * A live file of no rows (never uploaded). A file gone since it was listed (a swap, a sweep)
 * counts as empty; one whose footer cannot be read, as a file to commit.
 */
async function isEmpty(path: string): Promise<boolean> {
  const known = rowCounts.get(path);
  if (known !== undefined) return known === 0;
  try {
    const rows = await parquetRowCount(path);
    if (rowCounts.size >= ROW_COUNTS_KEPT) rowCounts.clear();
    rowCounts.set(path, rows);
    return rows === 0;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT';
  }
}

/**
 * Row counts by path, kept across looks: a lake file's name is never reused for other bytes, so
 * a sink's watch (every 30 s) and each /metrics scrape read a footer once, not at every look,
 * even while nothing is committed yet and every file is one the remote lacks.
 */
const rowCounts = new Map<string, number>();
const ROW_COUNTS_KEPT = 50_000;
