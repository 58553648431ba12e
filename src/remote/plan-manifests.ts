import {
  ADDED,
  type DataFile,
  DELETED,
  EXISTING,
  type Manifest,
  type ManifestEntry,
  type Operation,
} from './iceberg-model.js';

/**
 * Manifests of similar size merged once this many share a size class (each class 4x the one
 * below): a snapshot has at most about 3 manifests per class, so a table of n live files lists
 * O(log n) manifests, and a nightly append rewrites none of the old ones most nights (a merge
 * of the small ones one night in four, of larger ones more rarely). The metadata a publish
 * writes stays nearly the same size as the history grows.
 */
export const MERGE_FANOUT = 4;

/** The change a commit makes to a table's live files. */
export interface TableChange {
  readonly added: readonly DataFile[];
  /** URIs of live files to remove. */
  readonly removed: ReadonlySet<string>;
}

export interface ManifestPlan {
  /** Manifests of the current snapshot carried over unchanged (their files are not rewritten). */
  readonly kept: readonly Manifest['file'][];
  /** Manifests to write, by their entries. */
  readonly written: readonly (readonly ManifestEntry[])[];
  readonly replaced: number;
}

/**
 * The manifests of the snapshot `snapshot` that applies `change` to the current snapshot's
 * `manifests`: the added files in a new manifest; each manifest holding a removed file
 * rewritten with it marked DELETED (the others EXISTING); the rest reused as they are; then
 * manifests of a size class with MERGE_FANOUT members merged into one.
 */
export function planManifests(
  manifests: readonly Manifest[],
  change: TableChange,
  snapshot: { id: number; sequenceNumber: number },
): ManifestPlan {
  const groups: { kept?: Manifest; entries: ManifestEntry[] }[] = [];
  let replaced = 0;
  for (const manifest of manifests) {
    const live = manifest.entries.filter((e) => e.status !== DELETED);
    if (live.length === 0) {
      replaced += 1;
      continue;
    }
    if (!live.some((e) => change.removed.has(e.file.path))) {
      groups.push({ kept: manifest, entries: [...manifest.entries] });
      continue;
    }
    replaced += 1;
    groups.push({
      entries: live.map((e) =>
        change.removed.has(e.file.path)
          ? { ...e, status: DELETED, snapshotId: snapshot.id }
          : { ...e, status: EXISTING },
      ),
    });
  }
  if (change.added.length > 0)
    groups.unshift({
      entries: change.added.map((file) => ({
        status: ADDED,
        snapshotId: snapshot.id,
        sequenceNumber: snapshot.sequenceNumber,
        fileSequenceNumber: snapshot.sequenceNumber,
        file,
      })),
    });
  const merged = mergeBySize(groups, snapshot.id);
  replaced += merged.filter((g) => !g.kept).reduce((n, g) => n + g.from, 0);
  return {
    kept: merged.flatMap((g) => (g.kept ? [g.kept.file] : [])),
    written: merged.filter((g) => !g.kept).map((g) => g.entries),
    replaced,
  };
}

/** Live entries of a group: what its size class counts. */
function liveCount(entries: readonly ManifestEntry[]): number {
  return entries.filter((e) => e.status !== DELETED).length;
}

function sizeClass(entries: readonly ManifestEntry[]): number {
  return Math.floor(Math.log(Math.max(1, liveCount(entries))) / Math.log(MERGE_FANOUT));
}

/**
 * Merges, while some size class has MERGE_FANOUT groups, that class's groups into one: its
 * entries are this snapshot's additions and deletions as they are, every other live file
 * EXISTING, and earlier snapshots' deletions dropped. `from`: how many kept manifests a
 * written group replaces.
 */
function mergeBySize(
  groups: readonly { kept?: Manifest; entries: ManifestEntry[] }[],
  snapshotId: number,
): { kept?: Manifest; entries: ManifestEntry[]; from: number }[] {
  let out = groups.map((g) => ({ ...g, from: 0 }));
  for (;;) {
    const classes = new Map<number, typeof out>();
    for (const group of out) {
      const key = sizeClass(group.entries);
      classes.set(key, [...(classes.get(key) ?? []), group]);
    }
    const full = [...classes.entries()]
      .sort(([a], [b]) => a - b)
      .find(([, list]) => list.length >= MERGE_FANOUT);
    if (!full) return out;
    const members = new Set(full[1]);
    const entries = full[1].flatMap((g) =>
      g.entries.flatMap((e): ManifestEntry[] => {
        if (e.snapshotId === snapshotId && e.status !== EXISTING) return [e];
        return e.status === DELETED ? [] : [{ ...e, status: EXISTING }];
      }),
    );
    const from = full[1].reduce((n, g) => n + (g.kept ? 1 : g.from), 0);
    out = [{ entries, from }, ...out.filter((g) => !members.has(g))];
  }
}

/** The operation of a change: append (only added), delete (only removed), replace (the same rows in fewer files), else overwrite. */
export function operationOf(added: readonly DataFile[], removed: readonly DataFile[]): Operation {
  if (removed.length === 0) return 'append';
  if (added.length === 0) return 'delete';
  const rows = (files: readonly DataFile[]) => files.reduce((n, f) => n + f.rows, 0);
  return rows(added) === rows(removed) && added.length < removed.length ? 'replace' : 'overwrite';
}
