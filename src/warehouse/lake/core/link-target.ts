import { readdirSync, readlinkSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

/** The version a lake link points to: its folder (absolute) and its Parquet files (names, sorted). */
export interface LinkedVersion {
  readonly dir: string;
  readonly files: readonly string[];
}

/** The directory a lake link points to (absolute), or undefined when there is no link. */
export function linkTarget(link: string): string | undefined {
  try {
    return resolve(dirname(link), readlinkSync(link));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** The version `link` points to, read once (one readlink, one readdir); undefined without a link. */
export function linkedVersion(link: string): LinkedVersion | undefined {
  const dir = linkTarget(link);
  if (!dir) return undefined;
  const files = readdirSync(dir)
    .filter((name) => name.endsWith('.parquet'))
    .sort();
  return { dir, files };
}

/** The Parquet files of the version a link points to (names, sorted); [] without a link. */
export function linkedFiles(link: string): readonly string[] {
  return linkedVersion(link)?.files ?? [];
}
