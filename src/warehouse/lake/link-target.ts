import { readdirSync, readlinkSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

/** The directory a lake link points to (absolute), or undefined when there is no link. */
export function linkTarget(link: string): string | undefined {
  try {
    return resolve(dirname(link), readlinkSync(link));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** The Parquet files of the version a link points to (names, sorted); [] without a link. */
export function linkedFiles(link: string): string[] {
  const target = linkTarget(link);
  if (!target) return [];
  return readdirSync(target)
    .filter((name) => name.endsWith('.parquet'))
    .sort();
}
