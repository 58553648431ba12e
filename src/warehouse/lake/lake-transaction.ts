import {
  linkSync,
  mkdirSync,
  readdirSync,
  renameSync,
  rmdirSync,
  rmSync,
  symlinkSync,
  utimesSync,
} from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { sqlString } from '../duckdb/warehouse-paths.js';
import { fsyncPaths } from './core/fsync-path.js';
import { swappingLinks } from './core/lake-generation.js';
import { newVersionId, versionsPath } from './core/lake-layout.js';
import type { LakeTable } from './core/lake-tables.js';
import {
  type LinkedVersion,
  linkedVersion,
  linkTarget,
  SWAP_LINK_PREFIX,
  versionFiles,
} from './core/link-target.js';

/** A version directory being written: its files are moved in by COPY or hard-linked. */
export interface NewVersion {
  readonly dir: string;
  readonly vid: string;
}

/**
 * Rows per Parquet row group for tables with a wide JSON column (posts' `raw`, documents):
 * DuckDB's writer holds a row group in memory until it is written, and a group of DuckDB's
 * default size of posts' `raw` is far beyond a publish's memory limit; narrower tables keep
 * DuckDB's default.
 */
export const WIDE_ROW_GROUP_SIZE = 16_384;
const DEFAULT_ROW_GROUP_SIZE = 122_880;

/** Rows per row group of a lake file (`wide`: the table has a JSON column, LakeTable.wide). */
export function rowGroupSize(wide: boolean | undefined): number {
  return wide ? WIDE_ROW_GROUP_SIZE : DEFAULT_ROW_GROUP_SIZE;
}

/**
 * One publish's changes to the lake: new version directories, then one link swap per table
 * partition (or whole table) at commit. Nothing is visible before commit; abort removes what
 * was written. Version directories are immutable once a link points at them.
 */
export class LakeTransaction {
  readonly #staged: { link: string; version: NewVersion }[] = [];
  readonly #newFiles: string[] = [];
  /** Folders made inside new versions (a fact table's `last_date=` folders). */
  readonly #newSubfolders = new Set<string>();
  #committed = false;

  constructor(
    readonly lake: string,
    readonly connection: DuckDBConnection,
    readonly tables: ReadonlyMap<string, LakeTable>,
  ) {}

  table(name: string): LakeTable {
    const table = this.tables.get(name);
    if (!table) throw new Error(`warehouse: no lake table ${name}`);
    return table;
  }

  /** A new, empty version directory of `table`, named `<prefix>.<vid>`. */
  newVersion(table: string, prefix: string): NewVersion {
    const vid = newVersionId();
    const dir = join(versionsPath(this.lake, table), `${prefix}.${vid}`);
    mkdirSync(dir, { recursive: true });
    const version = { dir, vid };
    this.#staged.push({ link: '', version });
    return version;
  }

  /**
   * A new version of what `link` points to, swapped in at commit: the files of the current
   * version (`current`, read from the link unless the caller has it) that `keep` accepts are
   * hard-linked into it unchanged; the caller writes the rest. Returns the new version, the
   * current one (undefined: no link yet) and the names kept (places: kept where they were).
   */
  nextVersion(
    link: string,
    table: string,
    prefix: string,
    keep: (name: string) => boolean = () => false,
    current: LinkedVersion | undefined = linkedVersion(link),
  ): { version: NewVersion; current: LinkedVersion | undefined; kept: string[] } {
    const version = this.newVersion(table, prefix);
    this.publish(link, version);
    const kept = current ? current.files.filter(keep) : [];
    for (const name of kept) this.linkFile(join(current!.dir, name), version, name);
    return { version, current, kept };
  }

  /**
   * Hard-links a file by path (from a version staged in this transaction or a live one) into
   * `version` as `as`: a name, or a place in one of its folders (made if need be).
   */
  linkFile(path: string, version: NewVersion, as = basename(path)): void {
    linkSync(path, this.#placeIn(version, as));
  }

  /** The path of `place` in `version`, its folder made (and remembered for commit's fsync) if need be. */
  #placeIn(version: NewVersion, place: string): string {
    const path = join(version.dir, place);
    const folder = dirname(path);
    if (folder !== version.dir && !this.#newSubfolders.has(folder)) {
      mkdirSync(folder, { recursive: true });
      this.#newSubfolders.add(folder);
    }
    return path;
  }

  /**
   * Writes the rows of `select` into `version` as `name` (Parquet); returns how many. A file
   * of zero rows is removed unless `keepEmpty` (schema anchors), with the folder made for it. `rowGroupRows`: rows per row
   * group, when not rowGroupSize(wide) (closed periods' files).
   */
  async write(
    select: string,
    version: NewVersion,
    name: string,
    options: {
      params?: (string | number)[];
      keepEmpty?: boolean;
      wide?: boolean;
      rowGroupRows?: number;
    } = {},
  ): Promise<number> {
    const path = this.#placeIn(version, name);
    const result = await this.connection.run(
      `copy (${select}) to ${sqlString(path)} (format parquet, row_group_size ${options.rowGroupRows ?? rowGroupSize(options.wide)})`,
      options.params,
    );
    const rows = Number(result.rowsChanged);
    if (rows === 0 && !options.keepEmpty) {
      rmSync(path, { force: true });
      const folder = dirname(path);
      if (this.#newSubfolders.has(folder) && readdirSync(folder).length === 0) {
        rmdirSync(folder);
        this.#newSubfolders.delete(folder);
      }
    } else this.#newFiles.push(path);
    return rows;
  }

  /** Moves a Parquet file written elsewhere in the lake (a partitioned COPY) into `version`. */
  adopt(path: string, version: NewVersion, name: string): void {
    const to = this.#placeIn(version, name);
    renameSync(path, to);
    this.#newFiles.push(to);
  }

  /** Makes `link` point to `version` at commit. */
  publish(link: string, version: NewVersion): void {
    const entry = this.#staged.find((s) => s.version === version);
    if (!entry) throw new Error('warehouse: a version of another transaction');
    entry.link = link;
  }

  /**
   * Makes the new versions durable (files, then their folders), then swaps each link: a new
   * symlink under a temporary name renamed over the old one, so a reader resolves either the
   * old or the new version, never a missing one; then makes the swaps durable (the links'
   * folders). The replaced version's folder gets the swap time as its mtime: retention counts
   * from when a version stopped being live. The fsyncs of each of those three steps are issued
   * together, off the event loop (fsyncPaths); each step still begins once the one before is
   * durable.
   */
  async commit(): Promise<void> {
    await fsyncPaths(this.#newFiles);
    await fsyncPaths(this.#newFolders());
    await fsyncPaths(this.#swapLinks());
    this.#removeUnpublished();
  }

  /** The published versions' folders and their own folders, then the folders holding the versions (their new entries). */
  #newFolders(): string[] {
    const published = this.#staged.filter(({ link }) => link !== '').map(({ version }) => version.dir);
    const inside = [...this.#newSubfolders].filter((folder) => published.includes(dirname(folder)));
    return [...inside, ...published, ...new Set(published.map((dir) => dirname(dir)))];
  }

  /**
   * Swaps each published version's link (see commit); returns the links' folders. When a new
   * version lacks a file of the one it replaces, the lake is marked as being swapped meanwhile
   * (lake-generation.ts: this tool's readers run a query again that overlapped it).
   */
  #swapLinks(): Set<string> {
    this.#committed = true;
    if (!this.#replacesFiles()) return this.#swapEachLink();
    return swappingLinks(this.lake, newVersionId(), () => this.#swapEachLink());
  }

  /** Whether a published version lacks a file of the version its link points to now. */
  #replacesFiles(): boolean {
    return this.#staged.some(({ link, version }) => {
      const old = link === '' ? undefined : linkTarget(link);
      if (!old) return false;
      const kept = new Set(versionFiles(version.dir));
      return versionFiles(old).some((place) => !kept.has(place));
    });
  }

  #swapEachLink(): Set<string> {
    const now = new Date();
    const linkFolders = new Set<string>();
    for (const { link, version } of this.#staged) {
      if (link === '') continue;
      const old = linkTarget(link);
      mkdirSync(dirname(link), { recursive: true });
      // A dot name: no view's glob ever matches the new link in the instant before it is
      // renamed over the old one. One a crash leaves here, the upkeep removes (sweepVersions).
      const temp = join(dirname(link), `${SWAP_LINK_PREFIX}${version.vid}`);
      symlinkSync(relative(dirname(link), version.dir), temp);
      // Before the swap: a crash right after it must not leave the replaced version with its
      // creation time, which the next sweep would take for hours of not being live.
      if (old) utimesSync(old, now, now);
      renameSync(temp, link);
      linkFolders.add(dirname(link));
    }
    return linkFolders;
  }

  /** Removes the versions written but never published (a table with nothing to change). */
  #removeUnpublished(): void {
    for (const { link, version } of this.#staged)
      if (link === '') rmSync(version.dir, { recursive: true, force: true });
  }

  /** Removes what an uncommitted transaction wrote. */
  abort(): void {
    if (this.#committed) return;
    for (const { version } of this.#staged) rmSync(version.dir, { recursive: true, force: true });
  }
}
