import { createHash } from 'node:crypto';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { listMigrations } from '../../duckdb/apply-migrations.js';
import { listViews } from '../../duckdb/create-views.js';
import { fsyncPath } from '../core/fsync-path.js';

/**
 * Bumped when the catalog's own shape (not the migrations or views) changes, or a description
 * written in code (catalog-descriptions.ts, latestViewDescription): those in the SQL are
 * hashed with it. 2: latest_<fact> read the lake themselves (no `lake_latest` schema), and
 * every table, view and column has its description (COMMENT ON).
 */
const CATALOG_FORMAT = 2;

/**
 * What the published catalog (warehouse.duckdb) was built for: the lake's absolute path (its
 * views hold it) and the schema (migrations, analyst views, catalog format). Kept in
 * lake/_catalog.json with the fact tables' layout; when any differs (a moved data directory,
 * a new release) the next run rewrites the catalog (and upgrades an older layout first).
 */
export interface CatalogStamp {
  readonly lake: string;
  readonly schema: string;
  /** The fact tables' layout (FACT_LAYOUT); absent: the first, per-date folders. */
  readonly layout?: number;
}

export const STAMP_FILE = '_catalog.json';

export function currentSchemaHash(): string {
  const hash = createHash('sha256').update(`format ${CATALOG_FORMAT}\n`);
  for (const m of listMigrations()) hash.update(`${m.version} ${m.name}\n${m.sql}\n`);
  for (const v of listViews()) hash.update(`${v.name}\n${v.sql}\n`);
  return hash.digest('hex').slice(0, 16);
}

export function readStamp(lake: string): CatalogStamp | undefined {
  try {
    return JSON.parse(readFileSync(join(lake, STAMP_FILE), 'utf8')) as CatalogStamp;
  } catch {
    return undefined;
  }
}

export function writeStamp(lake: string, stamp: CatalogStamp): void {
  const temp = join(lake, `${STAMP_FILE}.tmp-${process.pid}`);
  writeFileSync(temp, `${JSON.stringify(stamp)}\n`);
  fsyncPath(temp);
  renameSync(temp, join(lake, STAMP_FILE));
  fsyncPath(lake);
}
