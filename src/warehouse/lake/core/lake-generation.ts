import { readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * `<lake>/.generation`: the last publish that replaced files, and whether one is swapping its
 * links now. DuckDB lists a folder, then looks each listed name up again by its path, and skips
 * a name that is gone (LocalFileSystem::ListFiles): a query planned in the instant a publish
 * swaps a link to a version without some of the old version's files (merged sink parts, a
 * rewritten file, a consolidated month) can silently read part of the table. A swap that only
 * adds files cannot cause that (every name listed is in the new version too, the same file), so
 * only replacing publishes write this file. A reader that reads it before and after its query,
 * and runs the query again when it changed (readConsistently), never reads part of a table.
 */
export const GENERATION_FILE = '.generation';

/** A mark older than this is a dead publish's, whatever its pid says (swaps take milliseconds). */
const STALE_MARK_MS = 60_000;

export interface LakeGeneration {
  /** The file's line as read ('' before any replacing publish of a release that writes it). */
  readonly text: string;
  /** The process swapping links now, if the line says one is (`<id> <pid>`). */
  readonly swappingPid?: number;
  /** When the line was written (ms). */
  readonly writtenAt: number;
}

/** The lake's generation now: one read of a file replaced by rename, so never half written. */
export function readGeneration(lake: string): LakeGeneration {
  const path = join(lake, GENERATION_FILE);
  try {
    const text = readFileSync(path, 'utf8').trim();
    const pid = text.split(' ')[1];
    const writtenAt = statSync(path).mtimeMs;
    return pid === undefined ? { text, writtenAt } : { text, swappingPid: Number(pid), writtenAt };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { text: '', writtenAt: 0 };
    throw error;
  }
}

/**
 * Runs `swap` (the link swaps of publish `id`, this process) with the lake marked as being
 * swapped, then marks it as swapped by `id`, even when `swap` throws. Call under the publish lock.
 */
export function swappingLinks<T>(lake: string, id: string, swap: () => T): T {
  writeGeneration(lake, `${id} ${process.pid}`);
  let result: T;
  try {
    result = swap();
  } catch (error) {
    // The swaps' error is the one to report, whether or not the mark can be cleared.
    try {
      writeGeneration(lake, id);
    } catch {}
    throw error;
  }
  writeGeneration(lake, id);
  return result;
}

/** Whether a generation says a live publish is swapping links now (a reader waits for it). */
export function isSwapping(generation: LakeGeneration, now = Date.now()): boolean {
  const pid = generation.swappingPid;
  if (pid === undefined || !Number.isInteger(pid) || pid <= 0) return false;
  if (now - generation.writtenAt > STALE_MARK_MS) return false;
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
