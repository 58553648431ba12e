import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ALL_SEGMENT } from '../../table-registry.js';
import { fsyncPath } from '../core/fsync-path.js';
import {
  ANCHOR_PARTITION,
  labelOf,
  latestLinkPath,
  partitionName,
  SCHEMA_FILE,
} from '../core/lake-layout.js';
import type { LakeTable } from '../core/lake-tables.js';
import { linkedVersion, linkTarget } from '../core/link-target.js';
import type { LakeTransaction } from '../lake-transaction.js';

/** One segment's latest snapshot: its date and a live path of its file. */
export interface LatestEntry {
  readonly date: string;
  readonly path: string;
}

/** A fact file's segment (unsegmented tables have one file per date, labelled `all`). */
export function segmentOfFile(name: string): string | undefined {
  const label = labelOf(name);
  return label === SCHEMA_FILE ? undefined : label;
}

/** The segments' latest snapshots as the current `_latest/<table>` tree has them. */
export function readLatest(lake: string, table: string): Map<string, LatestEntry> {
  const entries = new Map<string, LatestEntry>();
  const root = linkTarget(latestLinkPath(lake, table));
  if (!root) return entries;
  for (const dir of readdirSync(root)) {
    const date = dir.split('=')[1];
    if (!date || date === ANCHOR_PARTITION) continue;
    for (const name of readdirSync(join(root, dir))) {
      const segment = segmentOfFile(name);
      if (segment !== undefined) entries.set(segment, { date, path: join(root, dir, name) });
    }
  }
  return entries;
}

/**
 * The latest snapshot of every segment found by scanning the table's partitions, newest
 * first (after a conversion, or when a re-run removed a segment's latest rows). `skip`: a
 * date whose partition is being replaced (the caller knows its new files).
 */
export function scanLatest(lake: string, table: LakeTable, skip?: string): Map<string, LatestEntry> {
  const column = table.partitionColumn!;
  const entries = new Map<string, LatestEntry>();
  const tableDir = join(lake, table.name);
  if (!existsSync(tableDir)) return entries;
  const dates = readdirSync(tableDir)
    .filter((name) => name.startsWith(`${column}=`))
    .map((name) => name.slice(column.length + 1))
    .filter((date) => date !== ANCHOR_PARTITION && date !== skip)
    .sort()
    .reverse();
  for (const date of dates) {
    const current = linkedVersion(join(tableDir, partitionName(column, date)));
    for (const name of current?.files ?? []) {
      const segment = segmentOfFile(name);
      if (segment !== undefined && !entries.has(segment))
        entries.set(segment, { date, path: join(current!.dir, name) });
    }
  }
  return entries;
}

/**
 * The latest entries after `date` was published with `files` (segment -> path in its new
 * version) for `segments` (those replaced): a segment's entry moves to `date` when it is not
 * older than its current one; a segment whose rows on its latest date were removed falls
 * back to its previous date. Returns undefined when nothing changes.
 */
export function nextLatest(
  lake: string,
  table: LakeTable,
  current: Map<string, LatestEntry>,
  date: string,
  files: Map<string, string>,
  segments: readonly string[],
): Map<string, LatestEntry> | undefined {
  const next = new Map(current);
  let changed = false;
  let scanned: Map<string, LatestEntry> | undefined;
  for (const segment of table.segmented ? segments : [ALL_SEGMENT]) {
    const path = files.get(segment);
    const entry = current.get(segment);
    if (path !== undefined && (!entry || date >= entry.date)) {
      next.set(segment, { date, path });
      changed = true;
    } else if (path === undefined && entry?.date === date) {
      scanned ??= scanLatest(lake, table, date);
      const previous = scanned.get(segment);
      if (previous) next.set(segment, previous);
      else next.delete(segment);
      changed = true;
    }
  }
  return changed ? next : undefined;
}

/**
 * Writes a `_latest/<table>` version holding `entries` (hard links, under
 * snapshot_date=<date>/) and the table's schema anchor, and publishes it with `tx`.
 */
export function writeLatest(
  tx: LakeTransaction,
  table: LakeTable,
  entries: Map<string, LatestEntry>,
  anchorFile: string,
): void {
  const version = tx.newVersion(table.name, 'latest');
  const column = table.partitionColumn!;
  const dirs = new Set<string>();
  const place = (date: string, path: string) => {
    const dir = join(version.dir, partitionName(column, date));
    mkdirSync(dir, { recursive: true });
    tx.linkFile(path, { dir, vid: version.vid });
    dirs.add(dir);
  };
  place(ANCHOR_PARTITION, anchorFile);
  for (const { date, path } of entries.values()) place(date, path);
  // The commit makes the version's own folder durable; these subfolders' new links too.
  for (const dir of dirs) fsyncPath(dir);
  tx.publish(latestLinkPath(tx.lake, table.name), version);
}

/** The schema anchor file of a partitioned table, as live now. */
export function anchorFile(lake: string, table: LakeTable): string | undefined {
  const current = linkedVersion(
    join(lake, table.name, partitionName(table.partitionColumn!, ANCHOR_PARTITION)),
  );
  const name = current?.files.find((file) => labelOf(file) === SCHEMA_FILE);
  return current && name ? join(current.dir, name) : undefined;
}
