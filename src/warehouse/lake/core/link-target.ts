import { readdirSync, readlinkSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/**
 * The version a lake link points to: its folder (absolute) and its Parquet files, sorted, as
 * their places in it: a name, or `<folder>/<name>` for a file in one of its folders (a fact
 * table's `last_date=` folders).
 */
export interface LinkedVersion {
  readonly dir: string;
  readonly files: readonly string[];
}

/**
 * Prefix of the temporary link a swap makes beside a table's link, then renames over it
 * (LakeTransaction): a dot name, so no view's glob (`<column>=*`, `*.parquet`) ever matches it.
 */
export const SWAP_LINK_PREFIX = '.swap-';

/** The directory a lake link points to (absolute), or undefined when there is no link. */
export function linkTarget(link: string): string | undefined {
  try {
    return resolve(dirname(link), readlinkSync(link));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** The version `link` points to, read once (one readlink, one readdir per folder); undefined without a link. */
export function linkedVersion(link: string): LinkedVersion | undefined {
  const dir = linkTarget(link);
  if (!dir) return undefined;
  return { dir, files: versionFiles(dir) };
}

/** The Parquet files of a version folder and of its folders (one level), as places in it, sorted. */
export function versionFiles(dir: string): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory())
      for (const name of readdirSync(join(dir, entry.name)))
        if (name.endsWith('.parquet')) files.push(join(entry.name, name));
    if (entry.isFile() && entry.name.endsWith('.parquet')) files.push(entry.name);
  }
  return files.sort();
}

/** The Parquet files of the version a link points to (places, sorted); [] without a link. */
export function linkedFiles(link: string): readonly string[] {
  return linkedVersion(link)?.files ?? [];
}
