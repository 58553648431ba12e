/** The history benchmark's disk: what it uses, what is free, and its refusal when a step would not fit. */
import { execFileSync } from 'node:child_process';
import { statfsSync } from 'node:fs';

/** A step that would not fit on the disk: the benchmark stops before it with this one line. */
export class DiskSpaceError extends Error {}

/** Bytes free to this user on the file system of `dir`. */
export function freeBytes(dir: string): number {
  const stat = statfsSync(dir);
  return stat.bavail * stat.bsize;
}

/** Bytes under `dir` (du: each inode once, hard links are one file; folders included). */
export function diskBytes(dir: string): number {
  return Number(execFileSync('du', ['-sb', dir], { encoding: 'utf8' }).split('\t')[0]);
}

/**
 * Kept free beyond a step's estimate: other processes share the disk, and DuckDB spills
 * (temp files) during the native copy.
 */
export const DISK_MARGIN_BYTES = 2e9;

const gb = (bytes: number) => `${(bytes / 1e9).toFixed(1)} GB`;

/** Throws DiskSpaceError unless `need` bytes (plus the margin) are free under `dir`. */
export function requireFree(dir: string, need: number, what: string): void {
  const free = freeBytes(dir);
  if (free < need + DISK_MARGIN_BYTES)
    throw new DiskSpaceError(
      `${what} needs about ${gb(need)} (+${gb(DISK_MARGIN_BYTES)} margin) in ${dir}, only ${gb(free)} free; free some space or pass a smaller --days`,
    );
}

/** The bytes under a folder, sampled at each step: the run's peak. */
export class DiskPeak {
  peak = 0;
  constructor(private readonly dir: string) {}
  sample(): number {
    const bytes = diskBytes(this.dir);
    this.peak = Math.max(this.peak, bytes);
    return bytes;
  }
}
