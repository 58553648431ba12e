import { existsSync, lstatSync, readdirSync, renameSync, rmSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { sqlIdentifier as id, sqlString } from '../../duckdb/warehouse-paths.js';
import {
  ANCHOR_PARTITION,
  dataFileName,
  factFilePlace,
  isDay,
  labelOf,
  SCHEMA_FILE,
} from '../core/lake-layout.js';
import { fileColumns, type LakeTable } from '../core/lake-tables.js';
import { linkedVersion, linkTarget, versionFiles } from '../core/link-target.js';
import { factVersionOf, readFactFile } from '../facts/fact-files.js';
import { scanLatest, writeLatest } from '../facts/latest-tree.js';
import { writeFactHistory } from '../facts/write-period.js';
import { LakeTransaction } from '../lake-transaction.js';

/** Where a table's folder of per-date links is moved while its new link takes its place. */
const UPGRADING_PREFIX = '.upgrade-';

/** One day of one segment in the previous layout: its files (paths through the date's link). */
interface OldDay {
  readonly date: string;
  readonly segment: string;
  readonly paths: string[];
}

/**
 * Upgrades the fact tables from the per-date layout (FACT_LAYOUT 1: a folder per table of
 * `snapshot_date=D` links, files without the column) to one link per table (FACT_LAYOUT),
 * under the publish lock, one table at a time: its day partitions are read (hive, so
 * snapshot_date comes from the path) and written into one new version of today's layout (FACT_LAYOUT; month files for
 * closed months, day files for the open one, with snapshot_date), the rows per date compared
 * with the old files' before the table's link takes the place of its folder, and its latest
 * tree rebuilt. Resumable: a table already linked is skipped, one whose folder was moved
 * aside (a crash between the two renames) is taken from there. `afterTable`: a test's hook.
 * The caller rewrites the catalog once after.
 */
export async function upgradeFactLayout(
  tx: LakeTransaction,
  options: { afterTable?: (table: string) => void } = {},
): Promise<string[]> {
  const upgraded: string[] = [];
  for (const table of tx.tables.values()) {
    if (table.kind !== 'fact') continue;
    const folder = join(tx.lake, table.name);
    const aside = join(tx.lake, `${UPGRADING_PREFIX}${table.name}`);
    const linked = existsSync(folder) && lstatSync(folder).isSymbolicLink();
    if (!linked) {
      const old = existsSync(folder) ? folder : existsSync(aside) ? aside : undefined;
      if (!old) continue; // no rows yet: the anchors give it its link
      const step = new LakeTransaction(tx.lake, tx.connection, tx.tables);
      try {
        await upgradeTable(step, table, old);
        if (old === folder) renameSync(folder, aside);
        await step.commit();
      } finally {
        step.abort();
      }
      upgraded.push(table.name);
      options.afterTable?.(table.name);
    }
    if (existsSync(aside)) retire(aside);
  }
  return upgraded;
}

/** Writes `table`'s new version from its per-date links under `old`, checks it, stages its link and latest tree. */
async function upgradeTable(tx: LakeTransaction, table: LakeTable, old: string): Promise<void> {
  const days: OldDay[] = [];
  let oldAnchor: string | undefined;
  for (const entry of readdirSync(old).sort()) {
    const date = /^snapshot_date=(.*)$/.exec(entry)?.[1];
    if (!date || !isDay(date)) continue;
    const files = linkedVersion(join(old, entry))?.files ?? [];
    if (date === ANCHOR_PARTITION) {
      const name = files.find((file) => labelOf(file) === SCHEMA_FILE);
      if (name) oldAnchor = join(old, entry, name);
      continue;
    }
    const labels = new Set(files.map((name) => labelOf(name)!));
    const bySegment = new Map<string, string[]>();
    for (const name of files) {
      const label = labelOf(name);
      if (label === undefined || label === SCHEMA_FILE) continue;
      // A converted day could hold `<segment>-<i>` beside `<segment>` (one COPY's several files).
      const base = /^(.*)-\d+$/.exec(label)?.[1];
      const segment = base !== undefined && labels.has(base) ? base : label;
      bySegment.set(segment, [...(bySegment.get(segment) ?? []), join(old, entry, name)]);
    }
    for (const [segment, paths] of bySegment) days.push({ date, segment, paths });
  }
  const version = tx.newVersion(table.name, 'v');
  const anchorName = factFilePlace(dataFileName(SCHEMA_FILE, version.vid));
  const columns = fileColumns(table).map((c) => id(c.name));
  await tx.write(
    `select ${columns.join(', ')} from memory.main.${id(table.name)} limit 0`,
    version,
    anchorName,
    {
      keepEmpty: true,
    },
  );
  const anchor = join(version.dir, anchorName);
  const rows = (dates: readonly string[], segment: string) => {
    const paths = days.filter((d) => d.segment === segment && dates.includes(d.date)).flatMap((d) => d.paths);
    const list = [...(oldAnchor ? [oldAnchor] : []), ...paths].map(sqlString).join(', ');
    // The new anchor gives every column of the current schema (one the old files lack reads NULL).
    return `select ${columns.join(', ')} from (select * from read_parquet(${sqlString(anchor)})
      union all by name select * from read_parquet([${list}], hive_partitioning = true, union_by_name = true, hive_types = {'snapshot_date': 'DATE'}))`;
  };
  // `days` is in date order (the folders' names), so each month's files are read by date.
  await writeFactHistory(tx, table, version, days, rows, true);
  await checkCounts(tx, table, days, version.dir);
  tx.publish(join(tx.lake, table.name), version);
  const written = factVersionOf({ dir: version.dir, files: versionFiles(version.dir) });
  await writeLatest(tx, table, await scanLatest(tx, table, undefined, written.files), anchor);
}

/** Aborts (nothing swapped) unless the new version holds, per date, the rows the old files held. */
async function checkCounts(tx: LakeTransaction, table: LakeTable, days: readonly OldDay[], dir: string) {
  const counts = async (sql: string) =>
    new Map((await tx.connection.runAndReadAll(sql)).getRows().map(([d, n]) => [String(d), Number(n)]));
  const before = new Map<string, number>();
  const paths = days.flatMap((d) => d.paths.map((p) => [d.date, p] as const));
  if (paths.length > 0) {
    const perFile = await counts(
      `select file_name, num_rows from parquet_file_metadata([${paths.map(([, p]) => sqlString(p)).join(', ')}])`,
    );
    for (const [date, path] of paths) before.set(date, (before.get(date) ?? 0) + (perFile.get(path) ?? 0));
  }
  const after = await counts(
    `select strftime(snapshot_date, '%Y-%m-%d'), count(*) from ${readFactFile(`${dir}/*/*.parquet`, ', union_by_name = true')} group by 1`,
  );
  for (const date of new Set([...before.keys(), ...after.keys()]))
    if ((before.get(date) ?? 0) !== (after.get(date) ?? 0))
      throw new Error(
        `warehouse: upgrading ${table.name} to the layout of this release: ${date} has ${after.get(date) ?? 0} rows, the old files ${before.get(date) ?? 0}; nothing was changed`,
      );
}

/**
 * Removes a folder of per-date links once its table's new link is live: the links only (the
 * versions they pointed to follow the retention period, counted from now as for any
 * replaced version).
 */
function retire(aside: string): void {
  const now = new Date();
  for (const entry of readdirSync(aside)) {
    const target = linkTarget(join(aside, entry));
    if (target && existsSync(target)) utimesSync(target, now, now);
  }
  rmSync(aside, { recursive: true, force: true });
}
