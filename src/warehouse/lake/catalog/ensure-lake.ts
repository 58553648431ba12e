import { existsSync, mkdirSync } from 'node:fs';
import { UserError } from '../../../util/user-error.js';
import { isOutOfMemory, PUBLISH_RETRY_MEMORY, PUBLISH_SETTINGS } from '../../duckdb/open-database.js';
import { publishedPath } from '../../duckdb/warehouse-paths.js';
import { FACT_LAYOUT, lakePath } from '../core/lake-layout.js';
import { openLakeSession } from '../core/open-lake-session.js';
import type { LakeTransaction } from '../lake-transaction.js';
import { upgradeOlderData } from '../upgrades/upgrade-older-data.js';
import { type CatalogStamp, currentSchemaHash, readStamp, writeStamp } from './catalog-stamp.js';
import { writeAnchors } from './write-anchors.js';
import { removeCatalogLeftovers, writeCatalog } from './write-catalog.js';

/** The previous release's warehouse.duckdb is kept beside the catalog under this suffix. */
export { BEFORE_LAKE_SUFFIX } from '../upgrades/upgrade-older-data.js';

/** Why the catalog was (re)written, or undefined when it was up to date. */
export type CatalogChange = 'created' | 'converted' | 'upgraded' | 'moved' | 'schema' | 'rebuilt';

/**
 * Brings the lake and its catalog up to date; call under the publish lock. First removes the
 * temporary catalog files a killed catalog write left (removeCatalogLeftovers). Cheap when
 * nothing changed (reads lake/_catalog.json). Otherwise: the data of an older release is upgraded
 * first (upgrades/upgrade-older-data.ts, the one entry of the upgrades); the schema anchors are
 * rewritten; the catalog is rewritten (a moved data directory: its views held the old
 * absolute path). `afterUpgradeTable`: a test's hook, called after each table's upgrade.
 */
export async function ensureLake(
  dataDir: string,
  options: { force?: boolean; deferCreate?: boolean; afterUpgradeTable?: (table: string) => void } = {},
): Promise<{ change: CatalogChange | undefined; finish?: () => Promise<void> }> {
  const lake = lakePath(dataDir);
  const stamp = readStamp(lake);
  refuseNewerLayout(stamp, lake);
  removeCatalogLeftovers(dataDir);
  const schema = currentSchemaHash();
  const published = existsSync(publishedPath(dataDir));
  if (!options.force && isCurrent(stamp, lake, schema, published)) return { change: undefined };
  mkdirSync(lake, { recursive: true });
  const change: CatalogChange = !stamp
    ? published
      ? 'converted'
      : 'created'
    : options.force
      ? 'rebuilt'
      : (stamp.layout ?? 1) < FACT_LAYOUT
        ? 'upgraded'
        : stamp.lake !== lake
          ? 'moved'
          : 'schema';
  // A conversion reads the whole previous warehouse: more room than a publish.
  const settings = {
    ...PUBLISH_SETTINGS,
    memory_limit: stamp ? PUBLISH_SETTINGS.memory_limit! : PUBLISH_RETRY_MEMORY,
  };
  const session = await openLakeSession(dataDir, settings);
  let { tx } = session;
  try {
    const upgraded = await upgradeOlderData(tx, dataDir, stamp, published, options.afterUpgradeTable);
    tx = upgraded.tx;
    const { converted } = upgraded;
    await writeAnchors(tx);
    await tx.commit();
    const result = converted || change !== 'converted' ? change : 'rebuilt';
    if (result === 'created' && options.deferCreate)
      return { change: result, finish: () => finishCatalog(dataDir, schema) };
    await writeStampedCatalog(dataDir, tx, schema);
    return { change: result };
  } catch (error) {
    if (isOutOfMemory(error))
      throw new Error('warehouse: converting to the lake ran out of memory', { cause: error });
    throw error;
  } finally {
    tx.abort();
    await session.close();
  }
}

/**
 * A lake a later release has laid out differently is left alone: this release would not see
 * its fact files where that one put them, and rewriting the catalog or a fact table would drop
 * them from the live lake. A usage error (exit code 2): run the later release.
 */
function refuseNewerLayout(stamp: CatalogStamp | undefined, lake: string): void {
  if ((stamp?.layout ?? 0) > FACT_LAYOUT)
    throw new UserError(
      `warehouse: ${lake} was laid out by a later release of campaign-warehouse (fact layout ${stamp!.layout}; this release knows ${FACT_LAYOUT}): run that release, and stop every process of this one (serve, cron syncs) before it runs`,
    );
}

/** Whether warehouse.duckdb exists and was built for this lake's place and schema (no lock needed). */
export function catalogIsCurrent(dataDir: string): boolean {
  const lake = lakePath(dataDir);
  return isCurrent(readStamp(lake), lake, currentSchemaHash(), existsSync(publishedPath(dataDir)));
}

function isCurrent(
  stamp: CatalogStamp | undefined,
  lake: string,
  schema: string,
  published: boolean,
): boolean {
  return stamp?.lake === lake && stamp.schema === schema && stamp.layout === FACT_LAYOUT && published;
}

/** Writes the catalog of a new lake (deferred until its first publish succeeded). */
async function finishCatalog(dataDir: string, schema: string): Promise<void> {
  const session = await openLakeSession(dataDir, PUBLISH_SETTINGS);
  try {
    await writeStampedCatalog(dataDir, session.tx, schema);
  } finally {
    await session.close();
  }
}

/** Writes the catalog, then the stamp saying what it was built for (the lake's place, `schema`). */
async function writeStampedCatalog(dataDir: string, tx: LakeTransaction, schema: string): Promise<void> {
  await writeCatalog(dataDir, tx.connection, tx.lake, tx.tables);
  writeStamp(tx.lake, { lake: tx.lake, schema, layout: FACT_LAYOUT });
}
