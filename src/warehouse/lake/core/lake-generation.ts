import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * `<lake>/.generation`: which publish last swapped the lake's links, and whether one is swapping
 * them now. DuckDB lists a folder, then looks each name up again by its path, and skips a name
 * that is gone (LocalFileSystem::ListFiles): a query planned in the instant a publish swaps a
 * link can see a folder of one version and find its files missing from the next, and then
 * silently read part of a table. A reader that reads this file before and after its query, and
 * runs the query again when it changed (readConsistently), sees one whole publish of every
 * table.
 */
export const GENERATION_FILE = '.generation';

export interface LakeGeneration {
  /** The publish that last swapped links ('' before any publish of a release that writes it). */
  readonly id: string;
  /** The process swapping links now, if one is (the id is then that publish's). */
  readonly swappingPid?: number;
}

/** The lake's generation now: one read of a file replaced by rename, so never half written. */
export function readGeneration(lake: string): LakeGeneration {
  let text: string;
  try {
    text = readFileSync(join(lake, GENERATION_FILE), 'utf8');
  } catch {
    return { id: '' };
  }
  const [id = '', pid] = text.trim().split(' ');
  return pid === undefined ? { id } : { id, swappingPid: Number(pid) };
}

/**
 * Marks the lake as being swapped by publish `id` (this process) for the time `swap` runs, then
 * as swapped by it, even when `swap` throws. Call under the publish lock.
 */
export function swappingLinks<T>(lake: string, id: string, swap: () => T): T {
  writeGeneration(lake, `${id} ${process.pid}`);
  try {
    return swap();
  } finally {
    writeGeneration(lake, id);
  }
}

/** Whether a generation says a publish that is still running is swapping links. */
export function isSwapping(generation: LakeGeneration): boolean {
  const pid = generation.swappingPid;
  if (pid === undefined || !Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: alive, under another user. ESRCH: it died mid-swap; the next publish rewrites the file.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function writeGeneration(lake: string, text: string): void {
  const path = join(lake, GENERATION_FILE);
  const temp = `${path}.${process.pid}`;
  writeFileSync(temp, `${text}\n`);
  renameSync(temp, path);
}
