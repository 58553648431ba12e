import { existsSync, lstatSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { TABLES, type TableSpec } from '../../contracts/table-registry.js';
import { PUBLISH_SETTINGS } from '../duckdb/open-database.js';
import { sqlString } from '../duckdb/warehouse-paths.js';
import { ANCHOR_PARTITION, labelOf, lakePath, SCHEMA_FILE } from './core/lake-layout.js';
import type { LakeColumn, LakeTable } from './core/lake-tables.js';
import { linkTarget, versionFiles } from './core/link-target.js';
import { openLakeSession } from './core/open-lake-session.js';

/** A live data file of a lake table, as a copy of the lake elsewhere needs it. */
export interface LakeFile {
  /**
   * Its place in the table, unique within it and never reused for other bytes (file names
   * carry their version's id): `<partition folder>/<name>` for a stream table's day or a fact
   * table's `last_date=` folder, else its name.
   */
  readonly place: string;
  /** Its path through the version directory (not the link: stable while the link swaps). */
  readonly path: string;
  readonly bytes: number;
  /** A stream table's partition value (the day, YYYY-MM-DD). */
  readonly partition?: string;
  /** Rows and column bounds, read from the footer; absent when the caller needed none. */
  readonly stats?: LakeFileStats;
}

export interface LakeFileStats {
  readonly rows: number;
  /**
   * The lowest and highest value of each DATE and TIMESTAMP column as DuckDB prints them
   * (`2026-11-21`, `2026-11-21 09:00:05.123456`), over the row groups' statistics.
   */
  readonly bounds: Readonly<Record<string, readonly [string, string]>>;
}

/** A link of a lake table, read once: through it a reader sees one whole version. */
export interface LakeLink {
  /** '' for the table's own link, else its partition folder (a stream table's `received_date=<day>`). */
  readonly folder: string;
  /** The version folder it points to, relative to the lake (`_versions/<table>/<version>`): a new name at each publish. */
  readonly version: string;
}

/** A lake table's columns (as the migrations define them), its links and their live data files. */
export interface LakeTableFiles {
  readonly table: LakeTable;
  /** Every link of the table as read, listed or not. */
  readonly links: readonly LakeLink[];
  /** The live data files of the links listed (every link's, unless `listLinks` chose). */
  readonly files: readonly LakeFile[];
}

export interface DescribeOptions {
  /** Whether to read a file's footer for its stats (default: every file's). */
  readonly needStats?: (table: string, place: string) => boolean;
  /**
   * Which of a table's links (as read now) to list the files of; undefined leaves the table
   * out. Default: every link of every table. Links are read with one readlink each, without
   * DuckDB: a caller that knows which versions it has seen lists only the new ones, and opens
   * no DuckDB session when no table is left in.
   */
  readonly listLinks?: (table: string, links: readonly LakeLink[]) => readonly LakeLink[] | undefined;
}

/**
 * The live data files of every lake table (through the links, as a reader resolves them now;
 * schema anchors and empty files left out), each file once however many versions hard-link it.
 * Footers are read (one DuckDB query per table) for the files `needStats` accepts, the rest
 * carry no stats. `listLinks` narrows it to the links (and tables) that changed. Reads no
 * lock: each link resolves to a whole version, and its files are listed from that version.
 */
export async function describeLakeFiles(
  dataDir: string,
  options: DescribeOptions = {},
): Promise<LakeTableFiles[]> {
  const lake = lakePath(dataDir);
  const chosen = new Map<string, { links: LakeLink[]; listed: readonly LakeLink[] }>();
  for (const [name, spec] of Object.entries(TABLES as Record<string, TableSpec>)) {
    const links = readLinks(lake, { name, ...linkPartition(spec) });
    const listed = options.listLinks ? options.listLinks(name, links) : links;
    if (listed) chosen.set(name, { links, listed });
  }
  if (chosen.size === 0) return [];
  const needStats = options.needStats ?? (() => true);
  const session = await openLakeSession(dataDir, PUBLISH_SETTINGS);
  try {
    const out: LakeTableFiles[] = [];
    for (const table of session.tx.tables.values()) {
      const found = chosen.get(table.name);
      if (!found) continue;
      const listed = found.listed.flatMap((link) => linkFiles(lake, link));
      const wanted = listed.filter((file) => needStats(table.name, file.place));
      const stats = await readStats(session.tx.connection, table, wanted);
      const files: LakeFile[] = [];
      for (const file of listed) {
        const stat = stats.get(file.path);
        if (stat?.rows === 0) continue;
        files.push(stat ? { ...file, stats: stat } : file);
      }
      out.push({ table, links: found.links, files });
    }
    return out;
  } finally {
    await session.close();
  }
}

/** A registry table's partition column in the lake's paths (a stream table's; a fact table's folders are inside its versions). */
function linkPartition(spec: TableSpec): { partitionColumn?: string } {
  return spec.kind === 'stream' && spec.partitionColumn ? { partitionColumn: spec.partitionColumn } : {};
}

/** A table's links and their versions: each partition link of a stream table (not the anchor's), else the table's link. */
function readLinks(lake: string, table: Pick<LakeTable, 'name' | 'partitionColumn'>): LakeLink[] {
  const root = join(lake, table.name);
  const read = (link: string, folder: string): LakeLink[] => {
    const dir = linkTarget(link);
    return dir ? [{ folder, version: relative(lake, dir) }] : [];
  };
  if (!table.partitionColumn) return read(root, '');
  if (!existsSync(root) || !lstatSync(root).isDirectory()) return [];
  const prefix = `${table.partitionColumn}=`;
  return readdirSync(root)
    .sort()
    .filter((folder) => folder.startsWith(prefix) && folder.slice(prefix.length) !== ANCHOR_PARTITION)
    .flatMap((folder) => read(join(root, folder), folder));
}

/** The data files of the version a link points to (schema anchors left out). */
function linkFiles(lake: string, link: LakeLink): LakeFile[] {
  const dir = join(lake, link.version);
  const partition = link.folder ? link.folder.slice(link.folder.indexOf('=') + 1) : undefined;
  return versionFiles(dir)
    .filter((place) => labelOf(place) !== SCHEMA_FILE)
    .map((place) => {
      const path = join(dir, place);
      return {
        place: link.folder ? `${link.folder}/${place}` : place,
        path,
        bytes: statSync(path).size,
        ...(partition ? { partition } : {}),
      };
    });
}

/** Rows and DATE and TIMESTAMP bounds of `files` from their footers, by path. */
async function readStats(
  connection: import('@duckdb/node-api').DuckDBConnection,
  table: LakeTable,
  files: readonly LakeFile[],
): Promise<Map<string, LakeFileStats>> {
  const stats = new Map<string, { rows: number; bounds: Record<string, [string, string]> }>();
  if (files.length === 0) return stats;
  const list = `[${files.map((f) => sqlString(f.path)).join(', ')}]`;
  const counts = await connection.runAndReadAll(
    `select file_name, num_rows from parquet_file_metadata(${list})`,
  );
  for (const [name, rows] of counts.getRows()) stats.set(String(name), { rows: Number(rows), bounds: {} });
  const dates = boundedColumns(table.columns);
  if (dates.length > 0) {
    const bounds = await connection.runAndReadAll(
      `select file_name, path_in_schema, min(stats_min_value), max(stats_max_value)
         from parquet_metadata(${list})
        where path_in_schema in (${dates.map((c) => sqlString(c.name)).join(', ')})
        group by all`,
    );
    for (const [name, column, min, max] of bounds.getRows()) {
      const entry = stats.get(String(name));
      if (entry && min !== null && max !== null) entry.bounds[String(column)] = [String(min), String(max)];
    }
  }
  return stats;
}

function boundedColumns(columns: readonly LakeColumn[]): LakeColumn[] {
  return columns.filter((c) => c.type === 'DATE' || c.type === 'TIMESTAMP');
}
