import { statfsSync } from 'node:fs';

/** Below this share of the file system free, the data directory's disk is low (`disk_low`). */
export const DISK_LOW_RATIO = 0.1;
/**
 * Below this many bytes free, the disk is low whatever its size: a night's staging file and
 * the Parquet files it publishes take a few hundred MB for a large account.
 */
export const DISK_LOW_BYTES = 2 * 1024 ** 3;

export interface DiskSpace {
  /** Bytes an unprivileged writer can still use. */
  readonly freeBytes: number;
  readonly totalBytes: number;
}

/** The file system of `dir`: its free and total bytes; undefined when it cannot be read. */
export function diskSpace(dir: string): DiskSpace | undefined {
  try {
    const s = statfsSync(dir);
    return { freeBytes: s.bavail * s.bsize, totalBytes: s.blocks * s.bsize };
  } catch {
    return undefined;
  }
}

export function isDiskLow(
  space: DiskSpace,
  limits: { ratio: number; bytes: number } = { ratio: DISK_LOW_RATIO, bytes: DISK_LOW_BYTES },
): boolean {
  return space.freeBytes < limits.bytes || space.freeBytes < space.totalBytes * limits.ratio;
}
