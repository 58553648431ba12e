import type { RemoteConfig } from '../config/remote-config.js';
import { withFileLock } from '../state/with-file-lock.js';
import { describeLakeFiles, type LakeTableFiles, retentionFromEnv } from '../warehouse/index.js';
import { collectGarbage, SWEEP_PAGE } from './collect-garbage.js';
import { commitTable, type LocalFile, type LocalTable, liveFiles, type TableCommit } from './commit-table.js';
import type { DataFile } from './iceberg-model.js';
import type { DayPartition } from './next-metadata.js';
import { openStore } from './open-store.js';
import { type RemoteTable, readRemoteTable } from './read-remote-table.js';
import { RemoteFailure } from './remote-failure.js';
import { TablePaths } from './remote-paths.js';
import { commitLockPath, loadState, saveState, writerId } from './remote-state.js';
import type { S3Store } from './s3-store.js';
import { epochDays } from './single-value.js';

export interface CommitRemoteOptions {
  /**
   * Read each table back from the store instead of trusting what this data directory last
   * committed, compare every local file with it, and sweep every table's garbage (push).
   * Without it only the lake's links that moved since this data directory's last commit are
   * looked at: a table none of whose links moved costs no request and no listing.
   */
  readonly verify?: boolean;
  /** The snapshots' time (default: the clock). */
  readonly now?: () => number;
  /** A store already open (its request counts accumulate). */
  readonly store?: S3Store;
  /** Progress of the uploads: bytes sent so far of the bytes to send. */
  readonly onProgress?: (progress: { table: string; bytes: number }) => void;
}

export interface RemoteCommitResult {
  /** The tables a snapshot was committed to. */
  readonly commits: readonly TableCommit[];
  /** Objects garbage collection deleted. */
  readonly deleted: number;
  readonly requests: number;
  readonly bytesUp: number;
}

/** A table's objects are swept (a page of them) at most this often, and at most once a retention (push: all, always). */
const SWEEP_INTERVAL_MS = 10 * 60_000;

type LakeLinks = LakeTableFiles['links'];

/**
 * Commits the local lake to the remote: for each table of the registry whose live files
 * differ from what the remote's current snapshot holds of this data directory's files, one
 * snapshot (commitTable). The work follows the change: the lake's links are compared with
 * those this data directory last committed (remote-state.ts), and only the files of the links
 * that moved are listed and diffed; a table whose links did not move is not looked at. The
 * same function catches up after a failure, uploads a first history and runs after each
 * publish: it converges on the local lake, and a rerun that finds nothing to do does nothing.
 * `verify` compares every file with the store's tables. A snapshot per table, not across
 * tables. Throws a RemoteFailure at the first table the store fails (the tables before it are
 * committed).
 */
export async function commitRemote(
  dataDir: string,
  remote: RemoteConfig,
  options: CommitRemoteOptions = {},
): Promise<RemoteCommitResult> {
  const store = options.store ?? (await openStore(remote));
  return withFileLock(commitLockPath(dataDir), () => commitUnderLock(dataDir, remote, store, options), {
    timeoutMs: COMMIT_LOCK_TIMEOUT_MS,
    what: `remote ${remote.url}: another commit of this data directory holds the lock`,
  });
}

/**
 * How long a commit waits for another of the same data directory (a first upload of a long
 * history can take a while) before it fails, to be caught up by the next one.
 */
const COMMIT_LOCK_TIMEOUT_MS = 60 * 60_000;

async function commitUnderLock(
  dataDir: string,
  remote: RemoteConfig,
  store: S3Store,
  options: CommitRemoteOptions,
): Promise<RemoteCommitResult> {
  const before = { ...store.stats };
  const now = options.now ?? Date.now;
  const retentionMs = remote.retentionMs ?? retentionFromEnv();
  const writer = writerId(dataDir);
  const state = loadState(dataDir, remote.url);
  state.links ??= {};
  state.swept ??= {};
  const { links: marks, swept } = state;
  const known = new Map<string, RemoteTable>(Object.entries(state.tables));
  if (options.verify)
    for (const [name, table] of known)
      known.set(name, await readRemoteTable(store, new TablePaths(remote, name), table.manifests));
  const liveByTable = new Map<string, ReadonlyMap<string, { file: DataFile }>>();
  const live = (table: string) => {
    let found = liveByTable.get(table);
    if (!found) {
      found = liveFiles(known.get(table)?.manifests ?? []);
      liveByTable.set(table, found);
    }
    return found;
  };
  const scopes = new Map<string, ReadonlySet<string> | undefined>();
  const lake = await describeLakeFiles(dataDir, {
    needStats: (table, place) => {
      const paths = new TablePaths(remote, table);
      return !live(table).has(paths.uri(paths.dataKey(place, writer)));
    },
    ...(options.verify
      ? {}
      : {
          listLinks: (table: string, links: LakeLinks) => {
            const moved = movedLinks(marks[table], links);
            if (moved) scopes.set(table, moved.scope);
            return moved?.links;
          },
        }),
  });
  const commits: TableCommit[] = [];
  let deleted = 0;
  for (const described of lake) {
    const name = described.table.name;
    const paths = new TablePaths(remote, name);
    const local = localTable(described, paths, writer, live(name), scopes.get(name));
    const cached = known.get(name);
    const committed = Object.fromEntries(described.links.map((link) => [link.folder, link.version]));
    // Never committed and nothing to commit: no request (push reads the store instead).
    if (!cached && !options.verify && local.files.size === 0) {
      marks[name] = committed;
      saveState(dataDir, remote.url, state);
      continue;
    }
    const ctx = {
      store,
      remote,
      writer,
      retentionMs,
      now,
      onUpload: (bytes: number) => options.onProgress?.({ table: name, bytes }),
    };
    try {
      const { table, commit } = await commitTable(ctx, paths, local, cached);
      if (table.version > 0) state.tables[name] = table;
      marks[name] = committed;
      saveState(dataDir, remote.url, state);
      if (commit) commits.push(commit);
      // What the expired snapshots alone referenced goes at once. A sweep page, for what a crash
      // or a lost race left (rare, and never deletable before it is older than the retention),
      // at most once a retention.
      const expired = commit?.expired ?? [];
      const dropped = commit && cached ? droppedMetadata(paths, cached, table) : [];
      const last = swept[name];
      const sweepDue =
        commit !== undefined && now() - (last?.at ?? 0) >= Math.max(retentionMs, SWEEP_INTERVAL_MS);
      if (dropped.length > 0) {
        await store.delete(dropped);
        deleted += dropped.length;
      }
      if (table.metadata && (options.verify || expired.length > 0 || sweepDue)) {
        const sweep = options.verify
          ? 'all'
          : sweepDue
            ? { after: last?.after ?? '', count: SWEEP_PAGE }
            : undefined;
        const collected = await collectGarbage(
          store,
          paths,
          { ...table, metadata: table.metadata },
          now(),
          retentionMs,
          { ...(sweep ? { sweep } : {}), expired },
        );
        deleted += collected.deleted;
        if (sweep) swept[name] = { at: now(), after: collected.after };
        saveState(dataDir, remote.url, state);
      }
    } catch (error) {
      if (error instanceof RemoteFailure) throw withTable(error, name);
      throw error;
    }
  }
  return {
    commits,
    deleted,
    requests: store.stats.requests - before.requests,
    bytesUp: store.stats.bytesUp - before.bytesUp,
  };
}

/**
 * The links of a table to list, against those whose files the remote holds (`marked`, folder
 * to version): undefined when none moved; every link when none is marked (the whole table);
 * else the links at a new version, and the scope: their folders and those of links gone since.
 */
function movedLinks(
  marked: Readonly<Record<string, string>> | undefined,
  links: LakeLinks,
): { links: LakeLinks; scope: ReadonlySet<string> | undefined } | undefined {
  if (!marked) return { links, scope: undefined };
  const moved = links.filter((link) => marked[link.folder] !== link.version);
  const now = new Set(links.map((link) => link.folder));
  const gone = Object.keys(marked).filter((folder) => !now.has(folder));
  if (moved.length === 0 && gone.length === 0) return undefined;
  const folders = [...moved.map((link) => link.folder), ...gone];
  // The table's own link holds every folder of the table's files.
  return { links: moved, scope: folders.includes('') ? undefined : new Set(folders) };
}

/**
 * The metadata files the commit's new metadata-log no longer lists (older than the retention,
 * as the log keeps the rest): they go at once, without a listing, as Iceberg's
 * write.metadata.delete-after-commit does.
 */
function droppedMetadata(paths: TablePaths, base: RemoteTable, next: RemoteTable): string[] {
  const files = (table: RemoteTable) => [
    ...(table.metadata?.['metadata-log'] ?? []).map((entry) => paths.keyOf(entry['metadata-file'])),
    paths.versionKey(table.version),
  ];
  const kept = new Set(files(next));
  return files(base).filter((key): key is string => key !== undefined && !kept.has(key));
}

/** The table named in the failure's line. */
function withTable(error: RemoteFailure, table: string): RemoteFailure {
  return new RemoteFailure(
    error.message.replace(/ while /, ` while committing ${table}: `),
    error.code,
    error.status,
    {
      cause: error.cause,
    },
  );
}

/**
 * The day partition of a stream table: its local folders are by received_date, the UTC day
 * of received_at, which its files hold (the folder's column they do not).
 */
const STREAM_PARTITION: DayPartition = { name: 'received_date', source: 'received_at' };

/** The local table's files (of `scope`'s folders) by their remote URI, with stats from the footers or the remote's entries. */
function localTable(
  described: LakeTableFiles,
  paths: TablePaths,
  writer: string,
  live: ReadonlyMap<string, { file: DataFile }>,
  scope: ReadonlySet<string> | undefined,
): LocalTable {
  const { table } = described;
  const partition = table.partitionColumn === STREAM_PARTITION.name ? STREAM_PARTITION : undefined;
  if (table.partitionColumn && !partition)
    throw new Error(
      `remote: ${table.name} is partitioned by ${table.partitionColumn}, which the remote does not know`,
    );
  const files = new Map<string, LocalFile>();
  for (const file of described.files) {
    const uri = paths.uri(paths.dataKey(file.place, writer));
    const known = live.get(uri)?.file;
    files.set(uri, {
      path: file.path,
      bytes: file.bytes,
      partition: partition && file.partition ? { [partition.name]: epochDays(file.partition) } : {},
      ...(file.stats ? { stats: { rows: file.stats.rows, bounds: file.stats.bounds } } : {}),
      ...(known ? { known } : {}),
    });
  }
  return {
    name: table.name,
    columns: table.columns,
    ...(partition ? { partition } : {}),
    files,
    ...(scope ? { scope } : {}),
  };
}
