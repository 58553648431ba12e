import { existsSync, lstatSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { VERSIONS_DIR_NAME } from './core/lake-layout.js';
import { linkTarget, SWAP_LINK_PREFIX } from './core/link-target.js';

/**
 * How long a version directory is kept after it stopped being live (its link was swapped
 * to a newer one), by default. Readers of this tool's views never open a replaced version
 * (they resolve files through the links), and a file a reader has open survives its
 * removal; the period is for copies that follow the links while a publish runs (a sync of
 * the lake to object storage after each publish) and for looking back after a mistake.
 * An hour covers a sync taking minutes; the sink's versions of the day (hard links, a few
 * KB each) stay a few MB. Set CW_LAKE_RETENTION_MINUTES for another period.
 */
export const DEFAULT_RETENTION_MS = 60 * 60_000;

/** The retention period from CW_LAKE_RETENTION_MINUTES (a number of minutes, 0 or more). */
export function retentionFromEnv(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.CW_LAKE_RETENTION_MINUTES;
  if (raw === undefined || raw === '') return DEFAULT_RETENTION_MS;
  const minutes = Number(raw);
  if (!Number.isFinite(minutes) || minutes < 0)
    throw new Error(`CW_LAKE_RETENTION_MINUTES must be a number of minutes (0 or more), not "${raw}"`);
  return minutes * 60_000;
}

/**
 * Removes version directories no link points to (replaced ones, and ones a killed publish
 * left) once they are older than `retentionMs` (the mtime a swap gives the version it
 * replaces), after the swap links a killed publish left (removeStraySwapLinks). Lists the
 * versions and links (metadata only); call under the publish lock. Returns how many
 * directories were removed.
 */
export function sweepVersions(lake: string, retentionMs: number, now = Date.now()): number {
  const versions = join(lake, VERSIONS_DIR_NAME);
  if (!existsSync(versions)) return 0;
  removeStraySwapLinks(lake);
  const live = liveTargets(lake);
  let removed = 0;
  for (const table of readdirSync(versions)) {
    const dir = join(versions, table);
    for (const entry of readdirSync(dir)) {
      const path = join(dir, entry);
      if (live.has(path)) continue;
      if (now - statSync(path).mtimeMs < retentionMs) continue;
      rmSync(path, { recursive: true, force: true });
      removed += 1;
    }
  }
  return removed;
}

/**
 * The version directories the lake's links point to now: the tables' links in lake/ and the
 * links in its folders of links (stream_documents/, _latest/). Dot names are no table's link
 * (a swap's temporary link is one).
 */
export function liveTargets(lake: string): Set<string> {
  const live = new Set<string>();
  for (const link of lakeLinks(lake, (name) => !name.startsWith('.'))) {
    const target = linkTarget(link);
    if (target) live.add(target);
  }
  return live;
}

/**
 * Removes the swap links (SWAP_LINK_PREFIX) a publish killed between making one and renaming
 * it over its table's link left beside that link. Under the publish lock no swap is under way,
 * so each is a crash's; the version it points to was never published, and goes once older than
 * the retention like any version no link points to. Returns how many links were removed.
 */
export function removeStraySwapLinks(lake: string): number {
  const stray = lakeLinks(lake, (name) => name.startsWith(SWAP_LINK_PREFIX));
  for (const link of stray) rmSync(link, { force: true });
  return stray.length;
}

/** The symbolic links named `wanted` in lake/ and in its folders of links (one level down). */
function lakeLinks(lake: string, wanted: (name: string) => boolean): string[] {
  const links: string[] = [];
  for (const entry of readdirSync(lake)) {
    if (entry === VERSIONS_DIR_NAME) continue;
    const path = join(lake, entry);
    const stat = lstatSync(path);
    if (stat.isSymbolicLink()) {
      if (wanted(entry)) links.push(path);
    } else if (stat.isDirectory() && !entry.startsWith('.'))
      for (const child of readdirSync(path)) {
        const childPath = join(path, child);
        if (wanted(child) && lstatSync(childPath).isSymbolicLink()) links.push(childPath);
      }
  }
  return links;
}
