import { relative, sep } from 'node:path';
import { TABLES, type TableSpec } from '../../contracts/table-registry.js';
import { lakePath, versionIdTime, versionsPath } from './core/lake-layout.js';
import { type LakeFile, listFiles } from './describe-lake-files.js';

/** A live data file, listed (never opened: no stats), with when the publish that wrote it began. */
export interface LiveLakeFile extends LakeFile {
  /** Epoch ms of the version id in its name (undefined for a name without one). */
  readonly writtenAt: number | undefined;
}

/** A lake table's live data files as its links say now, and when its newest live version was made. */
export interface LiveLakeTable {
  readonly table: string;
  /** Its live data files (schema anchors left out). */
  readonly files: readonly LiveLakeFile[];
  /** Epoch ms of the newest version a link of the table points to (0 when no file is live). */
  readonly publishedAt: number;
}

/**
 * Every table of the registry with its live data files, read from the file system alone (one
 * readlink and readdir per link): no DuckDB, no lock, nothing written. What `status` and
 * /metrics compare with what the remote lake last committed (src/remote/remote-lag.ts).
 */
export function liveLakeFiles(dataDir: string): LiveLakeTable[] {
  const lake = lakePath(dataDir);
  return Object.entries(TABLES as Record<string, TableSpec>).map(([name, spec]) => {
    const files = listFiles(lake, {
      name,
      ...(spec.kind === 'stream' && spec.partitionColumn ? { partitionColumn: spec.partitionColumn } : {}),
    });
    const versions = versionsPath(lake, name);
    let publishedAt = 0;
    for (const file of files) {
      const folder = relative(versions, file.path).split(sep)[0] ?? '';
      publishedAt = Math.max(publishedAt, versionIdTime(folder) ?? 0);
    }
    return {
      table: name,
      files: files.map((file) => ({ ...file, writtenAt: versionIdTime(file.place) })),
      publishedAt,
    };
  });
}
