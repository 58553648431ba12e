import { join } from 'node:path';
import { sqlIdentifier as id, sqlString } from '../../duckdb/warehouse-paths.js';
import { dataFileName, labelOf, SCHEMA_FILE } from '../core/lake-layout.js';
import { type LinkedVersion, linkedVersion } from '../core/link-target.js';
import type { LakeTransaction } from '../lake-transaction.js';

/**
 * Publishes a new version of a small whole table (sync_runs, hooks): its rows whose keys
 * (table-registry.ts) are not in `rows` (a select), then `rows`, in one data file; the schema
 * anchor is kept.
 * `current`: the table's live version, when the caller has already read it.
 */
export async function rewriteWhole(
  tx: LakeTransaction,
  table: string,
  rows: string,
  current: LinkedVersion | undefined = linkedVersion(join(tx.lake, table)),
): Promise<number> {
  const { version } = tx.nextVersion(
    join(tx.lake, table),
    table,
    'v',
    (name) => labelOf(name) === SCHEMA_FILE,
    current,
  );
  const data = current?.files.filter((name) => labelOf(name) !== SCHEMA_FILE) ?? [];
  const k = tx.table(table).keys.map(id).join(', ');
  const old = data.length
    ? `select * from read_parquet([${data.map((name) => sqlString(join(current!.dir, name))).join(', ')}], union_by_name = true)
        where (${k}) not in (select ${k} from (${rows}))
       union all by name `
    : '';
  await tx.write(`${old}select * from (${rows})`, version, dataFileName('data', version.vid));
  const reader = await tx.connection.runAndReadAll(`select count(*) from (${rows})`);
  return Number(reader.getRows()[0]![0]);
}
