import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RemoteTable } from './read-remote-table.js';

/** The data directory's folder of what it knows about its remotes. */
export const REMOTE_DIR = 'remote';
const WRITER_FILE = 'writer-id';

/**
 * This data directory's writer id: the first part of the name of every data file it uploads,
 * which makes its files its own in tables other hosts commit to as well (a commit removes only
 * its own files that the local lake no longer has). Made once and kept: a copy of the data
 * directory that commits to the same remote must delete `remote/writer-id` first, or the two
 * would remove each other's files.
 */
export function writerId(dataDir: string): string {
  const found = readWriterId(dataDir);
  if (found) return found;
  const dir = join(dataDir, REMOTE_DIR);
  const path = join(dir, WRITER_FILE);
  mkdirSync(dir, { recursive: true });
  const id = `w${randomBytes(6).toString('hex')}`;
  atomicWrite(path, `${id}\n`);
  return id;
}

/** This data directory's writer id if it has one (never made here: a reader must not write). */
export function readWriterId(dataDir: string): string | undefined {
  try {
    const id = readFileSync(join(dataDir, REMOTE_DIR, WRITER_FILE), 'utf8').trim();
    return /^w[0-9a-f]{12}$/.test(id) ? id : undefined;
  } catch {
    return undefined;
  }
}

/**
 * What this data directory last committed to (or read from) each table of a remote, so that a
 * publish need not read the table back: its metadata version, metadata and manifests. Only a
 * cache: a commit based on a stale one fails its conditional write and reads the table again.
 */
export interface RemoteState {
  readonly tables: Record<string, RemoteTable>;
  /**
   * Per table, the local lake's links (folder, '' for the table's own, to the version it pointed
   * to) whose data files are exactly this data directory's files in the remote's current
   * snapshot, as of its last commit or check of the table. A link still at its version needs no
   * look: a publish's commit lists only the links that moved. Absent for a table: every link.
   */
  links?: Record<string, Record<string, string>>;
  /**
   * Per table, garbage collection's last sweep: when (the commits' clock) and the last key it
   * listed ('' when it reached the end: the next starts over).
   */
  swept?: Record<string, { readonly at: number; readonly after: string }>;
}

function statePath(dataDir: string, url: string): string {
  const hash = createHash('sha256').update(url).digest('hex').slice(0, 16);
  return join(dataDir, REMOTE_DIR, `state-${hash}.json`);
}

/**
 * The lock a data directory's commits hold, whatever the remote: a sink's loader, a sync that
 * serve started and a `remote push` share one writer id and one state file, so one commits at
 * a time (a state saved by one must not hide what another committed on top of it).
 */
export function commitLockPath(dataDir: string): string {
  return join(dataDir, REMOTE_DIR, '.commit.lock');
}

export function loadState(dataDir: string, url: string): RemoteState {
  try {
    const state = JSON.parse(readFileSync(statePath(dataDir, url), 'utf8')) as RemoteState & { url?: string };
    if (state.url === url && state.tables)
      return { tables: state.tables, links: state.links ?? {}, swept: state.swept ?? {} };
  } catch {}
  return { tables: {}, links: {}, swept: {} };
}

/**
 * Every remote this data directory has committed to, with what it last committed there (the
 * state files under `<data-dir>/remote/`); [] when it never did. Reads only: `status` and
 * /metrics use it, with no request to any store.
 */
export function listStates(dataDir: string): { url: string; state: RemoteState }[] {
  let names: string[];
  try {
    names = readdirSync(join(dataDir, REMOTE_DIR)).filter((n) => /^state-[0-9a-f]{16}\.json$/.test(n));
  } catch {
    return [];
  }
  const found: { url: string; state: RemoteState }[] = [];
  for (const name of names.sort()) {
    try {
      const state = JSON.parse(readFileSync(join(dataDir, REMOTE_DIR, name), 'utf8')) as RemoteState & {
        url?: unknown;
      };
      if (typeof state.url === 'string' && state.tables)
        found.push({ url: state.url, state: { tables: state.tables } });
    } catch {}
  }
  return found;
}

export function saveState(dataDir: string, url: string, state: RemoteState): void {
  mkdirSync(join(dataDir, REMOTE_DIR), { recursive: true });
  atomicWrite(
    statePath(dataDir, url),
    JSON.stringify({ url, tables: state.tables, links: state.links ?? {}, swept: state.swept ?? {} }),
  );
}

function atomicWrite(path: string, text: string): void {
  const temp = `${path}.tmp-${process.pid}`;
  writeFileSync(temp, text);
  renameSync(temp, path);
}
