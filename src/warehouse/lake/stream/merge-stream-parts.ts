import { join } from 'node:path';
import { sqlString } from '../../duckdb/warehouse-paths.js';
import { dataFileName, labelOf } from '../core/lake-layout.js';
import { linkedVersion } from '../core/link-target.js';
import type { LakeTransaction, NewVersion } from '../lake-transaction.js';

/**
 * How many files of one tier a stream partition holds before they are merged into one file
 * of the next tier. The sink adds a part every 30 s (2,880 a day) and a query on a table
 * costs about what its files do (listing them, then reading every footer: the views read
 * with union_by_name), so a day's parts are merged as they accumulate rather than only
 * after midnight. With 8, a day of 2,880 parts is at most 7 files per tier over 4 tiers
 * (at most 28 files, typically a dozen) and each row is rewritten at most 4 times that
 * day; 7 publishes in 8 merge nothing, so a publish's median cost is that of writing its
 * part (bench: `npm run bench -- stream-parts`).
 */
export const STREAM_MERGE_FANOUT = 8;

/** Tier of a sink part as the publish writes it; a merge of tier k files is of tier k+1 (`t<k+1>`). */
const PART_LABEL = 'p';
const TIER_LABEL = /^t([1-9][0-9]*)$/;

/**
 * The tier of a stream partition's file from its name: 0 for a part (`p.<vid>.parquet`),
 * k for a merge (`t<k>.<vid>.parquet`); undefined for any other file (the closed day's
 * compacted `c` file, the schema anchor), which intra-day merging leaves alone.
 */
export function streamTier(name: string): number | undefined {
  const label = labelOf(name);
  if (label === PART_LABEL) return 0;
  const match = label === undefined ? null : TIER_LABEL.exec(label);
  return match ? Number(match[1]) : undefined;
}

/**
 * Which of a partition's files to merge before a publish adds one part, and the merged
 * file's tier: when tier 0 holds `fanout - 1` files or more (the new part makes `fanout`),
 * its files are merged, and with them those of each next tier that the merged file would
 * bring to `fanout` (a cascade done in one write). Empty when nothing is due; `fanout`
 * Infinity: never.
 */
export function planStreamMerge(
  files: readonly string[],
  fanout = STREAM_MERGE_FANOUT,
): { files: string[]; tier: number } {
  if (!(fanout >= 2)) throw new RangeError(`warehouse: stream merge fanout must be 2 or more, not ${fanout}`);
  const byTier = new Map<number, string[]>();
  for (const name of files) {
    const tier = streamTier(name);
    if (tier === undefined) continue;
    const files = byTier.get(tier);
    if (files) files.push(name);
    else byTier.set(tier, [name]);
  }
  const merged: string[] = [];
  let tier = 0;
  // Tier 0 counts the part being published; a higher tier counts the merged file arriving.
  while ((byTier.get(tier)?.length ?? 0) + 1 >= fanout) {
    merged.push(...byTier.get(tier)!);
    tier += 1;
  }
  return merged.length ? { files: merged.sort(), tier } : { files: [], tier: 0 };
}

/**
 * A new version of a stream partition for a publish adding one part: the current version's
 * files hard-linked, except those planStreamMerge picks, which are merged into one file of
 * the next tier: copied as they are read, unsorted, so a merge streams in bounded memory
 * however large its tier (the closed day's compaction sorts by received_at). The part itself is
 * never merged by the publish that writes it: until the next publish settles it, it must be
 * live under its own name (the exactly-once set's recovery looks for it). Readers see the
 * partition before or after, in one link swap: never a row twice or missing.
 */
export async function nextStreamVersion(
  tx: LakeTransaction,
  table: string,
  link: string,
  date: string,
  fanout = STREAM_MERGE_FANOUT,
): Promise<NewVersion> {
  const current = linkedVersion(link);
  const plan = planStreamMerge(current?.files ?? [], fanout);
  const merging = new Set(plan.files);
  const { version } = tx.nextVersion(link, table, date, (name) => !merging.has(name), current);
  if (plan.files.length) {
    const paths = plan.files.map((name) => sqlString(join(current!.dir, name))).join(', ');
    await tx.write(
      `select * from read_parquet([${paths}], union_by_name = true)`,
      version,
      dataFileName(`t${plan.tier}`, version.vid),
      { wide: tx.table(table).wide },
    );
  }
  return version;
}
