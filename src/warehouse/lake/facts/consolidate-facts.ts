import { join } from 'node:path';
import { monthOf } from '../core/lake-layout.js';
import type { LakeTransaction } from '../lake-transaction.js';
import { type FactFile, factVersion } from './fact-files.js';
import { readFactFiles, writeMonthFile } from './write-month.js';

/**
 * The month before which a fact table's months are closed: the month of its newest snapshot.
 * From the data, not the clock: a month closes when a snapshot of a later one was published,
 * so a catch-up of a month's last days run after midnight still lands as day files, a
 * backfill of old dates is consolidated at the next upkeep, and the same lake consolidates
 * the same way whenever the upkeep runs.
 */
export function openMonth(files: readonly FactFile[]): string | undefined {
  let newest: string | undefined;
  for (const file of files) if (newest === undefined || file.period > newest) newest = file.period;
  return newest === undefined ? undefined : monthOf(newest);
}

/**
 * Consolidates each fact table's closed months (lake upkeep, under the publish lock): per
 * closed month and segment still holding day files, one file of the month's rows (its day
 * files, and its earlier month file if any) sorted by date; the table's other files are
 * hard-linked into the new version, swapped in with one link like a publish (atomic for
 * readers; a held-open connection sees it at its next query). The latest trees keep their
 * own links to the day files. Returns the month files written per table.
 */
export async function consolidateFacts(tx: LakeTransaction): Promise<Record<string, number>> {
  const written: Record<string, number> = {};
  for (const table of tx.tables.values()) {
    if (table.kind !== 'fact') continue;
    const current = factVersion(tx.lake, table.name);
    const open = current && openMonth(current.files);
    if (!current?.anchor || !open) continue;
    const groups = new Map<string, FactFile[]>();
    for (const file of current.files) {
      const month = monthOf(file.period);
      if (month >= open) continue;
      const key = `${month}~${file.segment}`;
      groups.set(key, [...(groups.get(key) ?? []), file]);
    }
    const closing = [...groups.values()].filter((files) => files.some((f) => f.period !== monthOf(f.period)));
    if (closing.length === 0) continue;
    const replaced = new Set(closing.flat().map((f) => f.name));
    const { version } = tx.nextVersion(
      join(tx.lake, table.name),
      table.name,
      'v',
      (name) => !replaced.has(name),
      current.version,
    );
    for (const files of closing) {
      // By name is by date (names start with it); day files only: read in that order, no sort.
      const sorted = [...files].sort((a, b) => (a.name < b.name ? -1 : 1));
      const { segment, period } = sorted[0]!;
      const select = readFactFiles(
        table,
        current.anchor,
        sorted.map((f) => f.path),
      );
      const daysOnly = sorted.every((f) => f.period !== monthOf(f.period));
      await writeMonthFile(tx, table, version, monthOf(period), segment, select, daysOnly);
    }
    written[table.name] = closing.length;
  }
  return written;
}
