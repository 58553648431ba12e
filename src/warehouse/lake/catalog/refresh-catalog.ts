import { existsSync } from 'node:fs';
import { publishedPath } from '../../duckdb/warehouse-paths.js';
import { healBrokenJson } from '../heal-broken-json.js';
import { withPublishLock } from '../publish-lock.js';
import { type CatalogChange, catalogIsCurrent, ensureLake } from './ensure-lake.js';

/**
 * Brings warehouse.duckdb up to date with its lake, under the publish lock: converts a
 * previous release's file, rewrites the catalog after the data directory moved (its views
 * hold absolute paths) or the schema changed; `force` rewrites it in any case. Returns what
 * changed (undefined: nothing to do). Does nothing where there is no warehouse yet.
 * `afterUpgradeTable`: a test's hook into an upgrade of the fact layout (see ensureLake).
 */
export async function refreshCatalog(
  dataDir: string,
  options: { force?: boolean; afterUpgradeTable?: (table: string) => void } = {},
): Promise<CatalogChange | undefined> {
  if (!existsSync(publishedPath(dataDir))) return undefined;
  if (!options.force && catalogIsCurrent(dataDir)) return undefined;
  return withPublishLock(dataDir, async () => {
    const { change } = await ensureLake(dataDir, options);
    // `catalog rebuild` (force) reads every file's JSON again; otherwise once per lake.
    await healBrokenJson(dataDir, { recheck: options.force === true });
    return change;
  });
}
