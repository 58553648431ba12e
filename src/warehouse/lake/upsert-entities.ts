import { join } from 'node:path';
import { ENTITY_KEYS } from '../table-keys.js';
import { sqlIdentifier as id, sqlString } from '../warehouse-paths.js';
import { dataFileName, labelOf, SCHEMA_FILE } from './lake-layout.js';
import { isWide, type LakeTable } from './lake-tables.js';
import type { LakeTransaction } from './lake-transaction.js';
import { linkedVersion } from './link-target.js';

/**
 * Entities in the lake: one row per key with the latest attributes, in one file per month of
 * first_seen_at (immutable per entity), so a run rewrites only the months holding entities it
 * saw and an entity never seen again rests in its month's file. `staged` (a select, one row
 * per key) replaces its rows, keeping the earlier first_seen_at and the later last_seen_at.
 * The old rows' keys and times are set aside first (narrow), so no join's build side carries
 * the wide `raw` column. Returns the number of staged rows.
 */
export async function upsertEntities(tx: LakeTransaction, table: LakeTable, staged: string): Promise<number> {
  const { connection } = tx;
  const link = join(tx.lake, table.name);
  const current = linkedVersion(link);
  const data = current?.files.filter((name) => labelOf(name) !== SCHEMA_FILE) ?? [];
  const keyList = ENTITY_KEYS[table.name as keyof typeof ENTITY_KEYS].map(id);
  const keys = keyList.join(', ');
  const old = `_old_${table.name}`;
  const paths = data.map((name) => join(current!.dir, name));
  const source = (list: string[]) =>
    `read_parquet([${list.map(sqlString).join(', ')}], union_by_name = true)`;
  // Semi and anti joins (not IN lists): DuckDB spills their hash tables past its limit.
  await connection.run(
    data.length
      ? `create or replace temp table ${id(old)} as
         select ${keyList.map((k) => `o.${k}`).join(', ')}, o.first_seen_at, o.last_seen_at
           from (select ${keys}, first_seen_at, last_seen_at from ${source(paths)}) o
           semi join (select ${keys} from (${staged})) s using (${keys})`
      : `create or replace temp table ${id(old)} as
         select ${keys}, first_seen_at, last_seen_at from (${staged}) limit 0`,
  );
  const merged = `select u.* replace (
        least(o.first_seen_at, u.first_seen_at) as first_seen_at,
        greatest(o.last_seen_at, u.last_seen_at) as last_seen_at),
      strftime(least(o.first_seen_at, u.first_seen_at), '%Y-%m') as _month
     from (${staged}) u left join ${id(old)} o using (${keys})`;
  // A row lives in the file of the month of its first_seen_at.
  const monthOf = (name: string) => labelOf(name)!.slice(0, 7);
  const touched = new Set<string>();
  for (const row of (
    await connection.runAndReadAll(`select distinct strftime(first_seen_at, '%Y-%m') from ${id(old)}`)
  ).getRows())
    touched.add(String(row[0]));
  for (const row of (await connection.runAndReadAll(`select distinct _month from (${merged})`)).getRows())
    touched.add(String(row[0]));
  // The schema anchor and the months not touched are kept.
  const { version } = tx.nextVersion(
    link,
    table.name,
    'v',
    (name) => !data.includes(name) || !touched.has(monthOf(name)),
    current,
  );
  const wide = isWide(table);
  const columns = table.columns.map((c) => id(c.name)).join(', ');
  for (const month of [...touched].sort()) {
    const monthFiles = paths.filter((path) => monthOf(path.split('/').pop()!) === month);
    const kept = monthFiles.length
      ? `select ${columns} from ${source(monthFiles)} k anti join ${id(old)} o using (${keys})
         union all by name `
      : '';
    await tx.write(
      `${kept}select ${columns} from (${merged}) where _month = ${sqlString(month)}`,
      version,
      dataFileName(month, version.vid),
      { wide },
    );
  }
  await connection.run(`drop table ${id(old)}`);
  const reader = await connection.runAndReadAll(`select count(*) from (${staged})`);
  return Number(reader.getRows()[0]![0]);
}
