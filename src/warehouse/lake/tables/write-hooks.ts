import { join } from 'node:path';
import type { Row } from '../../../contracts/rows.js';
import { sqlIdentifier as id, sqlString } from '../../duckdb/warehouse-paths.js';
import { fillScratch } from '../core/fill-scratch.js';
import { labelOf, SCHEMA_FILE } from '../core/lake-layout.js';
import { linkedVersion } from '../core/link-target.js';
import type { LakeTransaction } from '../lake-transaction.js';
import { rewriteWhole } from './rewrite-whole.js';

/** The batch's last state of each hook replaces its row; returns the rows written (0: none changed). */
export async function writeHooks(tx: LakeTransaction, hooks: readonly Row[]): Promise<number> {
  const latest = new Map<string, Row>();
  for (const row of hooks) {
    const key = String(row.hook_id);
    latest.delete(key);
    latest.set(key, row);
  }
  const select = await fillScratch(tx, 'hooks', [...latest.values()].reverse());
  // The loader passes every hook at each publish: rewrite only when one changed.
  const current = linkedVersion(join(tx.lake, 'hooks'));
  const data = current?.files.filter((name) => labelOf(name) !== SCHEMA_FILE) ?? [];
  if (current && data.length && !(await hooksDiffer(tx, current.dir, data))) return 0;
  return rewriteWhole(tx, 'hooks', select, current);
}

/**
 * Whether the batch's hooks differ from the published ones, compared column by column by
 * name (files written before a migration added a column read it as NULL, and so differ).
 */
async function hooksDiffer(tx: LakeTransaction, target: string, files: readonly string[]): Promise<boolean> {
  // The session's hooks table, as the migrations define it (its columns in order).
  const columns = tx
    .table('hooks')
    .columns.map((c) => id(c.name))
    .join(', ');
  const paths = files.map((name) => sqlString(join(target, name))).join(', ');
  const published = `select ${columns} from read_parquet([${paths}], union_by_name = true)`;
  try {
    const diff = await tx.connection.runAndReadAll(
      `select count(*) from (select ${columns} from memory.main.hooks except ${published})`,
    );
    return Number(diff.getRows()[0]![0]) > 0;
  } catch {
    // A published file lacking a column the table has now: rewrite.
    return true;
  }
}
