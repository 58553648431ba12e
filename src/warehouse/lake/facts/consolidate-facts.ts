import { join } from 'node:path';
import { closedPeriodOf, comparePeriods, periodEnd, periodStart } from '../core/lake-layout.js';
import type { LakeTransaction } from '../lake-transaction.js';
import { type FactFile, factVersion, newestPeriod } from './fact-files.js';
import { readFactFiles, withPeriodWriteSettings, writePeriodFile } from './write-period.js';

/**
 * Whether `files` (one closed period's of one segment, by periodEnd) hold disjoint date
 * ranges in that order: each file's period starts after the previous one's ends (not so for a
 * day file before its month's file, which a publish rewrites instead of adding the day: not
 * written by this release). Read in that order, their rows come by date with no sort;
 * otherwise they are sorted: so a compactFiles table's open year, whose own file (its closed
 * ten days so far, first by comparePeriods) ends after them by periodEnd, is sorted whole when
 * ten days close (a year of a few hundred rows a day: 292k rows of campaign_network_metrics at
 * 200 campaigns).
 */
function inDateOrder(files: readonly FactFile[]): boolean {
  return files.every((file, i) => i === 0 || periodStart(file.period) > periodEnd(files[i - 1]!.period));
}

/**
 * Consolidates each fact table's closed periods (lake upkeep, under the publish lock): per
 * segment, a closed year's files (its months' and any days') become one year file, a closed
 * month's of the open year (its ten-day and day files, and its earlier month file if any)
 * one month file, and closed ten days of the open month (their day files) one ten-day file,
 * all read in date order with no sort (a year's sort would spill and need several times the
 * memory: its month files are already sorted), in row groups of PERIOD_ROW_GROUP_SIZE. The
 * table's other files are hard-linked into the new version, swapped in with one link like a
 * publish (atomic for readers; a held-open connection sees it at its next query). So the first
 * upkeep after a year's last month closed writes the year from its eleven month files and its
 * December files at once. A compactFiles table has no month or ten-day tier: its closed ten
 * days join its year's file, the open year's too (closedPeriodOf). The latest trees keep
 * their own links to day files. DuckDB's limit is raised once for all the writes (each change
 * of it purges the process's allocator).
 * Returns the files written per table.
 */
export async function consolidateFacts(tx: LakeTransaction): Promise<Record<string, number>> {
  const plans = [...tx.tables.values()].flatMap((table) => {
    const current = table.kind === 'fact' ? factVersion(tx.lake, table.name) : undefined;
    const newest = current && newestPeriod(current.files);
    if (!current?.anchor || !newest) return [];
    const groups = new Map<string, { period: string; segment: string; files: FactFile[] }>();
    for (const file of current.files) {
      const period = closedPeriodOf(file.period, newest, table.compactFiles);
      if (period === undefined) continue;
      const key = `${period}~${file.segment}`;
      const group = groups.get(key) ?? { period, segment: file.segment, files: [] };
      group.files.push(file);
      groups.set(key, group);
    }
    const closing = [...groups.values()].filter((g) => g.files.some((f) => f.period !== g.period));
    return closing.length === 0 ? [] : [{ table, current, anchor: current.anchor, closing }];
  });
  const written: Record<string, number> = {};
  if (plans.length === 0) return written;
  await withPeriodWriteSettings(tx.connection, async () => {
    for (const { table, current, anchor, closing } of plans) {
      const replaced = new Set(closing.flatMap((g) => g.files.map((f) => f.name)));
      const { version } = tx.nextVersion(
        join(tx.lake, table.name),
        table.name,
        'v',
        (name) => !replaced.has(name),
        current.version,
      );
      for (const { period, segment, files } of closing) {
        const ordered = [...files].sort((a, b) => comparePeriods(a.period, b.period));
        const select = readFactFiles(
          table,
          anchor,
          ordered.map((f) => f.path),
        );
        await writePeriodFile(tx, table, version, period, segment, select, inDateOrder(ordered));
      }
      written[table.name] = closing.length;
    }
  });
  return written;
}
