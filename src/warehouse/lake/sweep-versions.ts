import { existsSync, lstatSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { VERSIONS_DIR_NAME } from './core/lake-layout.js';
import { linkTarget } from './core/link-target.js';

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
 * replaces). Lists the versions and links (metadata only); call under the publish lock.
 * Returns how many directories were removed.
 */
export function sweepVersions(lake: string, retentionMs: number, now = Date.now()): number {
  const versions = join(lake, VERSIONS_DIR_NAME);
  if (!existsSync(versions)) return 0;
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

/** The version directories the lake's links point to now. */
export function liveTargets(lake: string): Set<string> {
  const live = new Set<string>();
  const add = (link: string) => {
    const target = linkTarget(link);
    if (target) live.add(target);
  };
  for (const entry of readdirSync(lake)) {
    if (entry === VERSIONS_DIR_NAME || entry.startsWith('.')) continue;
    const path = join(lake, entry);
    const stat = lstatSync(path);
    if (stat.isSymbolicLink()) add(path);
    else if (stat.isDirectory())
      for (const child of readdirSync(path)) {
        const childPath = join(path, child);
        if (lstatSync(childPath).isSymbolicLink()) add(childPath);
      }
  }
  return live;
}
