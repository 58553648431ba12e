import { existsSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { sqlString } from '../../duckdb/warehouse-paths.js';
import { ANCHOR_PARTITION, dataFileName, partitionName } from '../core/lake-layout.js';
import { linkedVersion } from '../core/link-target.js';
import type { LakeTransaction } from '../lake-transaction.js';
import { StreamKeys } from './stream-keys.js';

/**
 * Merges each closed day's sink parts (a received date before `today`, UTC) into one file:
 * a new version of the day's partition holding exactly the rows of its parts, swapped in
 * like a publish, so no query sees a row twice or misses one. The sink adds one part per
 * publish (up to 2,880 a day at a 30 s interval); this leaves one per day. A day that gets a
 * late part (a backlog published after midnight) is merged again at the next run. Parts a
 * crashed publish left pending are settled first (their names are what recovery looks for).
 * Returns the days merged per table.
 */
export async function compactStream(tx: LakeTransaction, today: string): Promise<Record<string, number>> {
  const keys = StreamKeys.open(dirname(tx.lake), tx.lake);
  try {
    keys.recover();
  } finally {
    keys.close();
  }
  const merged: Record<string, number> = {};
  for (const table of tx.tables.values()) {
    if (table.kind !== 'stream') continue;
    const column = table.partitionColumn!;
    const root = join(tx.lake, table.name);
    if (!existsSync(root)) continue;
    merged[table.name] = 0;
    for (const entry of readdirSync(root).sort()) {
      const date = entry.startsWith(`${column}=`) ? entry.slice(column.length + 1) : undefined;
      if (!date || date === ANCHOR_PARTITION || date >= today) continue;
      const link = join(root, partitionName(column, date));
      const current = linkedVersion(link);
      if (!current || current.files.length < 2) continue;
      const { version } = tx.nextVersion(link, table.name, date, undefined, current);
      const paths = current.files.map((name) => sqlString(join(current.dir, name))).join(', ');
      await tx.write(
        `select * from read_parquet([${paths}], union_by_name = true) order by received_at`,
        version,
        dataFileName('c', version.vid),
        { wide: table.wide, keepEmpty: true },
      );
      merged[table.name] += 1;
    }
  }
  return merged;
}
