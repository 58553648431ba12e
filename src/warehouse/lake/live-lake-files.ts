import { readdir, readlink } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { TABLES, type TableSpec } from '../../contracts/table-registry.js';
import { ANCHOR_PARTITION, labelOf, lakePath, SCHEMA_FILE, versionIdTime } from './core/lake-layout.js';

/** A live data file, listed (never opened), with when the publish that wrote it began. */
export interface LiveLakeFile {
  /** Its place in the table, as LakeFile's (`<partition folder>/<name>`, or its place in the version). */
  readonly place: string;
  /** Its path through the version directory. */
  readonly path: string;
  /** Epoch ms of the version id in its name (undefined for a name without one). */
  readonly writtenAt: number | undefined;
}

/** A lake table's live data files as its links say now, and when its newest live version was made. */
export interface LiveLakeTable {
  readonly table: string;
  /** Its live data files (schema anchors left out). */
  readonly files: readonly LiveLakeFile[];
  /** Epoch ms of the newest version a link of the table points to (0 when it has no link). */
  readonly publishedAt: number;
}

/**
 * Every table of the registry with its live data files, read from the file system alone (a
 * readlink and a readdir per link): no DuckDB, no lock, nothing written. What `status`, /metrics
 * and the notifications compare with what the remote lake last committed
 * (src/remote/remote-lag.ts). The same walk as describeLakeFiles' listing, but asynchronous
 * and without a stat per file: a 365-day lake has over a thousand links, and the sink's event
 * loop, which acknowledges deliveries, must not wait for them at each scrape.
 */
export async function liveLakeFiles(dataDir: string): Promise<LiveLakeTable[]> {
  const lake = lakePath(dataDir);
  const tables: LiveLakeTable[] = [];
  for (const [name, spec] of Object.entries(TABLES as Record<string, TableSpec>)) {
    const links = await tableLinks(lake, name, spec);
    const versions: ({ dir: string; files: LiveLakeFile[] } | undefined)[] = [];
    // A few links at a time: the loop handles each batch's replies between other work.
    for (let at = 0; at < links.length; at += LINKS_AT_ONCE)
      versions.push(
        ...(await Promise.all(
          links.slice(at, at + LINKS_AT_ONCE).map(({ link, folder }) => linkedFiles(link, folder)),
        )),
      );
    const files = versions.flatMap((v) => v?.files ?? []);
    const publishedAt = Math.max(0, ...versions.map((v) => (v ? (versionIdTime(v.dir) ?? 0) : 0)));
    tables.push({ table: name, files, publishedAt });
  }
  return tables;
}

/** Links read at once (the libuv pool has four threads; more in flight only lengthens a batch of replies). */
const LINKS_AT_ONCE = 16;

/** A table's links: each partition link of a stream table (not the anchor's), else the table's own. */
async function tableLinks(
  lake: string,
  name: string,
  spec: TableSpec,
): Promise<{ link: string; folder: string }[]> {
  const root = join(lake, name);
  if (spec.kind !== 'stream' || !spec.partitionColumn) return [{ link: root, folder: '' }];
  const prefix = `${spec.partitionColumn}=`;
  const folders = await readdir(root).catch(absent([] as string[]));
  return folders
    .filter((folder) => folder.startsWith(prefix) && folder.slice(prefix.length) !== ANCHOR_PARTITION)
    .sort()
    .map((folder) => ({ link: join(root, folder), folder }));
}

/** The data files of the version `link` points to (its folders' too, one level), or undefined without a link. */
async function linkedFiles(
  link: string,
  folder: string,
): Promise<{ dir: string; files: LiveLakeFile[] } | undefined> {
  const target = await readlink(link).catch(absent(undefined));
  if (target === undefined) return undefined;
  const dir = resolve(dirname(link), target);
  const places: string[] = [];
  const entries = await readdir(dir, { withFileTypes: true }).catch(absent([]));
  await Promise.all(
    entries.map(async (entry) => {
      if (entry.isFile() && entry.name.endsWith('.parquet')) places.push(entry.name);
      if (entry.isDirectory())
        for (const name of await readdir(join(dir, entry.name)).catch(absent([] as string[])))
          if (name.endsWith('.parquet')) places.push(join(entry.name, name));
    }),
  );
  const files = places
    .filter((place) => labelOf(place) !== SCHEMA_FILE)
    .sort()
    .map((place) => ({
      place: folder ? `${folder}/${place}` : place,
      path: join(dir, place),
      writtenAt: versionIdTime(basename(place)),
    }));
  return { dir, files };
}

/** A catch for a path gone (no link yet, a version swept since the link was read): `value`. */
function absent<T>(value: T): (error: NodeJS.ErrnoException) => T {
  return (error) => {
    if (error.code === 'ENOENT' || error.code === 'EINVAL') return value;
    throw error;
  };
}
