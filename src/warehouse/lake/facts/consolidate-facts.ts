import { join } from 'node:path';
import { closedPeriodOf, periodEnd } from '../core/lake-layout.js';
import type { LakeTransaction } from '../lake-transaction.js';
import { type FactFile, factVersion } from './fact-files.js';
import { readFactFiles, writeMonthFile } from './write-month.js';

/**
 * The newest period among a fact table's files (its newest snapshot date, as every table has
 * day files of its open month): months and years before its own are closed. From the data,
 * not the clock: a month closes when a snapshot of a later one was published, so a catch-up
 * of a month's last days run after midnight still lands as day files, a backfill of old dates
 * is consolidated at the next upkeep, and the same lake consolidates the same way whenever
 * the upkeep runs.
 */
export function newestPeriod(files: readonly FactFile[]): string | undefined {
  let newest: string | undefined;
  for (const file of files) if (newest === undefined || file.period > newest) newest = file.period;
  return newest;
}

/**
 * Whether `files` (one closed period's of one segment, by periodEnd) hold disjoint date
 * ranges in that order: no file's period lies within the next one's (a day file before its
 * month's file, which a publish rewrites instead of adding the day: not written by this
 * release). Read in that order, their rows come by date with no sort; otherwise they are sorted.
 */
function inDateOrder(files: readonly FactFile[]): boolean {
  return files.every((file, i) => i === 0 || !files[i - 1]!.period.startsWith(file.period));
}

/**
 * Consolidates each fact table's closed periods (lake upkeep, under the publish lock): per
 * segment, a closed year's files (its months' and any days') become one year file, a closed
 * month's of the open year (its days', and its earlier month file if any) one month file,
 * both read in date order with no sort (a year's sort would spill and need several times the
 * memory: its month files are already sorted), in row groups of MONTH_ROW_GROUP_SIZE. The
 * table's other files are hard-linked into the new version, swapped in with one link like a
 * publish (atomic for readers; a held-open connection sees it at its next query). So the first
 * upkeep after a year's last month closed writes the year from its eleven month files and its
 * December days at once. The latest trees keep their own links to day files. Returns the
 * files written per table.
 */
export async function consolidateFacts(tx: LakeTransaction): Promise<Record<string, number>> {
  const written: Record<string, number> = {};
  for (const table of tx.tables.values()) {
    if (table.kind !== 'fact') continue;
    const current = factVersion(tx.lake, table.name);
    const newest = current && newestPeriod(current.files);
    if (!current?.anchor || !newest) continue;
    const groups = new Map<string, { period: string; segment: string; files: FactFile[] }>();
    for (const file of current.files) {
      const period = closedPeriodOf(file.period, newest);
      if (period === undefined) continue;
      const key = `${period}~${file.segment}`;
      const group = groups.get(key) ?? { period, segment: file.segment, files: [] };
      group.files.push(file);
      groups.set(key, group);
    }
    const closing = [...groups.values()].filter((g) => g.files.some((f) => f.period !== g.period));
    if (closing.length === 0) continue;
    const replaced = new Set(closing.flatMap((g) => g.files.map((f) => f.name)));
    const { version } = tx.nextVersion(
      join(tx.lake, table.name),
      table.name,
      'v',
      (name) => !replaced.has(name),
      current.version,
    );
    for (const { period, segment, files } of closing) {
      const ordered = [...files].sort((a, b) => (periodEnd(a.period) < periodEnd(b.period) ? -1 : 1));
      const select = readFactFiles(
        table,
        current.anchor,
        ordered.map((f) => f.path),
      );
      await writeMonthFile(tx, table, version, period, segment, select, inDateOrder(ordered));
    }
    written[table.name] = closing.length;
  }
  return written;
}
