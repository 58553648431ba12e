import { existsSync, lstatSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { PUBLISH_SETTINGS } from '../duckdb/open-database.js';
import { sqlString } from '../duckdb/warehouse-paths.js';
import { ANCHOR_PARTITION, labelOf, lakePath, SCHEMA_FILE } from './core/lake-layout.js';
import type { LakeColumn, LakeTable } from './core/lake-tables.js';
import { linkedVersion } from './core/link-target.js';
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

/** A lake table's columns (as the migrations define them) and its live data files. */
export interface LakeTableFiles {
  readonly table: LakeTable;
  readonly files: readonly LakeFile[];
}

/**
 * The live data files of every lake table (through the links, as a reader resolves them now;
 * schema anchors and empty files left out), each file once however many versions hard-link it.
 * Footers are read (one DuckDB query per table) for the files `needStats` accepts, the rest
 * carry no stats. Reads no lock: each link resolves to a whole version.
 */
export async function describeLakeFiles(
  dataDir: string,
  needStats: (table: string, place: string) => boolean = () => true,
): Promise<LakeTableFiles[]> {
  const lake = lakePath(dataDir);
  const session = await openLakeSession(dataDir, PUBLISH_SETTINGS);
  try {
    const out: LakeTableFiles[] = [];
    for (const table of session.tx.tables.values()) {
      const listed = listFiles(lake, table);
      const wanted = listed.filter((file) => needStats(table.name, file.place));
      const stats = await readStats(session.tx.connection, table, wanted);
      const files: LakeFile[] = [];
      for (const file of listed) {
        const found = stats.get(file.path);
        if (found?.rows === 0) continue;
        files.push(found ? { ...file, stats: found } : file);
      }
      out.push({ table, files });
    }
    return out;
  } finally {
    await session.close();
  }
}

/** The data files of a table's current version(s): each partition link of a stream table, else the table's link. */
export function listFiles(lake: string, table: Pick<LakeTable, 'name' | 'partitionColumn'>): LakeFile[] {
  const root = join(lake, table.name);
  const files: LakeFile[] = [];
  const add = (link: string, folder: string | undefined, partition: string | undefined) => {
    const version = linkedVersion(link);
    if (!version) return;
    for (const place of version.files) {
      if (labelOf(place) === SCHEMA_FILE) continue;
      const path = join(version.dir, place);
      files.push({
        place: folder ? `${folder}/${place}` : place,
        path,
        bytes: statSync(path).size,
        ...(partition ? { partition } : {}),
      });
    }
  };
  if (!table.partitionColumn) {
    add(root, undefined, undefined);
    return files;
  }
  if (!existsSync(root) || !lstatSync(root).isDirectory()) return files;
  const prefix = `${table.partitionColumn}=`;
  for (const folder of readdirSync(root).sort()) {
    if (!folder.startsWith(prefix)) continue;
    const value = folder.slice(prefix.length);
    if (value === ANCHOR_PARTITION) continue;
    add(join(root, folder), folder, value);
  }
  return files;
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
