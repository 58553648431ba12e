import { readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { ALL_SEGMENT } from '../../../contracts/table-registry.js';
import { sqlString } from '../../duckdb/warehouse-paths.js';
import {
  comparePeriods,
  dataFileName,
  factLabel,
  latestLinkPath,
  parseFactFile,
  periodEnd,
} from '../core/lake-layout.js';
import type { LakeTable } from '../core/lake-tables.js';
import { linkTarget } from '../core/link-target.js';
import type { LakeTransaction } from '../lake-transaction.js';
import { type FactFile, factRows, factVersion, isDayFile, readFactFile } from './fact-files.js';

/** One segment's latest snapshot: its date and a live path of a file holding it (a day's, a month's or a year's). */
export interface LatestEntry {
  readonly date: string;
  readonly path: string;
}

/** The segments' latest snapshots as the current `_latest/<table>` tree has them (day files). */
export function readLatest(lake: string, table: string): Map<string, LatestEntry> {
  const entries = new Map<string, LatestEntry>();
  const root = linkTarget(latestLinkPath(lake, table));
  if (!root) return entries;
  for (const name of readdirSync(root)) {
    const file = parseFactFile(name);
    if (file) entries.set(file.segment, { date: file.period, path: join(root, name) });
  }
  return entries;
}

/**
 * The latest snapshot of every segment found in the table's live files, newest first (after
 * a conversion or an upgrade, or when a re-run removed a segment's latest rows): a day file's
 * date from its name; a ten days', month's or year's file (a segment whose last snapshot is in
 * a closed period) is asked its latest date. `skip`: a date being replaced (the caller knows its
 * new files); `live`: the files to scan, when not the live version's (an upgrade's new version).
 */
export async function scanLatest(
  tx: LakeTransaction,
  table: LakeTable,
  skip?: string,
  live: readonly FactFile[] = factVersion(tx.lake, table.name)?.files ?? [],
): Promise<Map<string, LatestEntry>> {
  const entries = new Map<string, LatestEntry>();
  const files = [...live].filter((f) => f.period !== skip).sort((a, b) => comparePeriods(b.period, a.period));
  for (const file of files) {
    const entry = entries.get(file.segment);
    if (isDayFile(file)) {
      if (!entry || entry.date < file.period)
        entries.set(file.segment, { date: file.period, path: file.path });
      continue;
    }
    if (entry && entry.date > periodEnd(file.period)) continue;
    const reader = await tx.connection.runAndReadAll(
      `select strftime(max(snapshot_date), '%Y-%m-%d') from ${readFactFile(file.path)}
        where snapshot_date <> ${sqlString(skip ?? '0001-01-01')}::date`,
    );
    const date = reader.getRows()[0]?.[0];
    if (date !== null && date !== undefined && (!entry || entry.date < String(date)))
      entries.set(file.segment, { date: String(date), path: file.path });
  }
  return entries;
}

/**
 * The latest entries after `date` was published with `files` (segment -> path in its new
 * version) for `segments` (those replaced): a segment's entry moves to `date` when it is not
 * older than its current one; a segment whose rows on its latest date were removed falls
 * back to its previous date. Returns undefined when nothing changes.
 */
export async function nextLatest(
  tx: LakeTransaction,
  table: LakeTable,
  current: Map<string, LatestEntry>,
  date: string,
  files: Map<string, string>,
  segments: readonly string[],
): Promise<Map<string, LatestEntry> | undefined> {
  const next = new Map(current);
  let changed = false;
  let scanned: Map<string, LatestEntry> | undefined;
  for (const segment of table.segmented ? segments : [ALL_SEGMENT]) {
    const path = files.get(segment);
    const entry = current.get(segment);
    if (path !== undefined && (!entry || date >= entry.date)) {
      next.set(segment, { date, path });
      changed = true;
    } else if (path === undefined && entry?.date === date) {
      scanned ??= await scanLatest(tx, table, date);
      const previous = scanned.get(segment);
      if (previous) next.set(segment, previous);
      else next.delete(segment);
      changed = true;
    }
  }
  return changed ? next : undefined;
}

/**
 * Writes a `_latest/<table>` version holding `entries` and the table's schema anchor (hard
 * links, one flat folder), and publishes it with `tx`. An entry in a period's file
 * gets a day file of its date's rows written instead: latest_<fact> must never read a whole
 * month.
 */
export async function writeLatest(
  tx: LakeTransaction,
  table: LakeTable,
  entries: Map<string, LatestEntry>,
  anchorFile: string,
): Promise<void> {
  const version = tx.newVersion(table.name, 'latest');
  tx.linkFile(anchorFile, version);
  for (const [segment, { date, path }] of entries) {
    const file = parseFactFile(basename(path));
    if (file && file.period === date) tx.linkFile(path, version);
    else
      await tx.write(
        `select * from ${factRows(path, date)}`,
        version,
        dataFileName(factLabel(date, segment), version.vid),
        { wide: table.wide },
      );
  }
  tx.publish(latestLinkPath(tx.lake, table.name), version);
}
