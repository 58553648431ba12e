import { join } from 'node:path';
import { sqlIdentifier as id, sqlString } from '../warehouse-paths.js';
import { dataFileName, labelOf, SCHEMA_FILE } from './lake-layout.js';
import type { LakeTransaction } from './lake-transaction.js';
import { linkedFiles, linkTarget } from './link-target.js';

/**
 * Publishes a new version of a small whole table (sync_runs, hooks): its rows whose `keys`
 * are not in `rows` (a select), then `rows`, in one data file; the schema anchor is kept.
 */
export async function rewriteWhole(
  tx: LakeTransaction,
  table: string,
  keys: readonly string[],
  rows: string,
): Promise<number> {
  const link = join(tx.lake, table);
  const files = linkedFiles(link);
  const data = files.filter((name) => labelOf(name) !== SCHEMA_FILE);
  const version = tx.newVersion(table, 'v');
  for (const name of files) if (!data.includes(name)) tx.keep(link, name, version);
  const k = keys.map(id).join(', ');
  const old = data.length
    ? `select * from read_parquet([${data.map((name) => sqlString(join(linkTarget(link)!, name))).join(', ')}], union_by_name = true)
        where (${k}) not in (select ${k} from (${rows}))
       union all by name `
    : '';
  await tx.write(`${old}select * from (${rows})`, version, dataFileName('data', version.vid));
  tx.publish(link, version);
  const reader = await tx.connection.runAndReadAll(`select count(*) from (${rows})`);
  return Number(reader.getRows()[0]![0]);
}
