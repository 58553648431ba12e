import { basename, join } from 'node:path';
import { sqlIdentifier as id } from '../../duckdb/warehouse-paths.js';
import {
  ANCHOR_PARTITION,
  dataFileName,
  factFilePlace,
  labelOf,
  latestLinkPath,
  partitionName,
  SCHEMA_FILE,
} from '../core/lake-layout.js';
import { fileColumns, type LakeTable } from '../core/lake-tables.js';
import { linkTarget, versionFiles } from '../core/link-target.js';
import { factVersionOf } from '../facts/fact-files.js';
import { readLatest, scanLatest, writeLatest } from '../facts/latest-tree.js';
import { withPeriodWriteSettings } from '../facts/write-period.js';
import type { LakeTransaction } from '../lake-transaction.js';
import { backfillFile, filesToBackfill } from './backfill-facts.js';

/** A zero-row select of a table's file columns, typed as the migrations define them. */
function emptySelect(table: LakeTable): string {
  return `select ${fileColumns(table)
    .map((c) => id(c.name))
    .join(', ')} from memory.main.${id(table.name)} limit 0`;
}

/**
 * Writes every table's schema anchor with the current schema (catalog changes only): a stream
 * table's `<column>=0001-01-01` partition, another table's `_schema` file beside its data
 * files (kept), and a fact table's `_latest` tree (its entries kept). After this every
 * table's glob matches at least one file and every column of the migrations has a type.
 * A fact table's rows that lack a column it backfills get it (backfill-facts.ts).
 */
export async function writeAnchors(tx: LakeTransaction): Promise<void> {
  for (const table of tx.tables.values()) {
    if (table.partitionColumn) {
      const version = tx.newVersion(table.name, ANCHOR_PARTITION);
      const name = dataFileName(SCHEMA_FILE, version.vid);
      await tx.write(emptySelect(table), version, name, { keepEmpty: true });
      tx.publish(join(tx.lake, table.name, partitionName(table.partitionColumn, ANCHOR_PARTITION)), version);
    } else if (table.kind === 'fact') await relinkFacts(tx, table);
    else {
      const link = join(tx.lake, table.name);
      const { version } = tx.nextVersion(link, table.name, 'v', (file) => labelOf(file) !== SCHEMA_FILE);
      await tx.write(emptySelect(table), version, dataFileName(SCHEMA_FILE, version.vid), {
        keepEmpty: true,
      });
    }
  }
}

/**
 * A fact table's new version: each file linked into its `last_date=` folder (where it already
 * is, or, the first time a lake of FACT_LAYOUT 2 (one flat folder) is opened, moved there), or
 * rewritten when its rows lack a backfilled column; its anchor; its latest tree, taken from the
 * new files when some were rewritten or when the tree's own lack a backfilled column (a crash
 * between the table's swap and its tree's).
 */
async function relinkFacts(tx: LakeTransaction, table: LakeTable): Promise<void> {
  const { version, current } = tx.nextVersion(join(tx.lake, table.name), table.name, 'v');
  const files = current ? factVersionOf(current).files : [];
  const lacking = await filesToBackfill(
    tx,
    table,
    files.map((f) => f.path),
  );
  for (const file of current?.files ?? []) {
    const path = join(current!.dir, file);
    if (labelOf(file) !== SCHEMA_FILE && !lacking.has(path))
      tx.linkFile(path, version, factFilePlace(basename(file)));
  }
  if (lacking.size > 0)
    await withPeriodWriteSettings(tx.connection, async () => {
      for (const file of files) {
        const rows = lacking.get(file.path);
        if (rows !== undefined) await backfillFile(tx, table, version, file, rows);
      }
    });
  const name = factFilePlace(dataFileName(SCHEMA_FILE, version.vid));
  await tx.write(emptySelect(table), version, name, { keepEmpty: true });
  let entries = lacking.size > 0 ? undefined : await latestEntries(tx, table);
  const stale =
    entries &&
    (await filesToBackfill(
      tx,
      table,
      [...entries.values()].map((e) => e.path),
    ));
  if (stale?.size) entries = undefined;
  entries ??= await scanLatest(
    tx,
    table,
    undefined,
    factVersionOf({ dir: version.dir, files: versionFiles(version.dir) }).files,
  );
  await writeLatest(tx, table, entries, join(version.dir, name));
}

/** The current latest entries; scanned from the table's files when there is no tree yet (after a conversion). */
async function latestEntries(tx: LakeTransaction, table: LakeTable) {
  const entries = linkTarget(latestLinkPath(tx.lake, table.name))
    ? readLatest(tx.lake, table.name)
    : undefined;
  return entries?.size ? entries : await scanLatest(tx, table);
}
