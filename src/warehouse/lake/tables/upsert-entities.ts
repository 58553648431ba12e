import { join } from 'node:path';
import { sqlIdentifier as id, sqlString } from '../../duckdb/warehouse-paths.js';
import { dataFileName, labelOf, SCHEMA_FILE } from '../core/lake-layout.js';
import type { LakeTable } from '../core/lake-tables.js';
import { linkedVersion } from '../core/link-target.js';
import type { LakeTransaction, NewVersion } from '../lake-transaction.js';

/**
 * Entities in the lake: one row per key with the latest attributes, in one file per month of
 * first_seen_at (immutable per entity), so a run rewrites only the months holding entities it
 * saw and an entity never seen again rests in its month's file. `staged` (a select, one row
 * per key) replaces its rows, keeping the earlier first_seen_at and the later last_seen_at.
 * The old rows' keys and times are set aside first (narrow), so no join's build side carries
 * the wide `raw` column. Returns the number of staged rows.
 */
export async function upsertEntities(tx: LakeTransaction, table: LakeTable, staged: string): Promise<number> {
  const link = join(tx.lake, table.name);
  const current = linkedVersion(link);
  const data = current?.files.filter((name) => labelOf(name) !== SCHEMA_FILE) ?? [];
  const upsert: Upsert = {
    table,
    staged,
    keys: table.keys.map(id),
    old: id(`_old_${table.name}`),
    paths: data.map((name) => join(current!.dir, name)),
  };
  await setAsideOldTimes(tx, upsert);
  const { touched, stagedRows } = await touchedMonths(tx, upsert);
  // The schema anchor and the months not touched are kept.
  const { version } = tx.nextVersion(
    link,
    table.name,
    'v',
    (name) => !data.includes(name) || !touched.has(monthOf(name)),
    current,
  );
  for (const month of [...touched].sort()) await writeMonth(tx, upsert, version, month);
  await tx.connection.run(`drop table ${upsert.old}`);
  return stagedRows;
}

/** One upsert's names: the staged select, the quoted keys, the temp table of old times, the live files. */
interface Upsert {
  readonly table: LakeTable;
  readonly staged: string;
  readonly keys: readonly string[];
  readonly old: string;
  readonly paths: readonly string[];
}

/** A row lives in the file of the month of its first_seen_at. */
const monthOf = (name: string) => labelOf(name)!.slice(0, 7);

const source = (paths: readonly string[]) =>
  `read_parquet([${paths.map(sqlString).join(', ')}], union_by_name = true)`;

/** The staged rows with the old times merged in, and the month of the file each goes to. */
const merged = ({ staged, keys, old }: Upsert) => `select u.* replace (
        least(o.first_seen_at, u.first_seen_at) as first_seen_at,
        greatest(o.last_seen_at, u.last_seen_at) as last_seen_at),
      strftime(least(o.first_seen_at, u.first_seen_at), '%Y-%m') as _month
     from (${staged}) u left join ${old} o using (${keys.join(', ')})`;

/** The keys and times of the live rows the staged rows replace, into the temp table `old`. */
async function setAsideOldTimes(tx: LakeTransaction, { staged, keys, old, paths }: Upsert): Promise<void> {
  const k = keys.join(', ');
  // Semi and anti joins (not IN lists): DuckDB spills their hash tables past its limit.
  await tx.connection.run(
    paths.length
      ? `create or replace temp table ${old} as
         select ${keys.map((key) => `o.${key}`).join(', ')}, o.first_seen_at, o.last_seen_at
           from (select ${k}, first_seen_at, last_seen_at from ${source(paths)}) o
           semi join (select ${k} from (${staged})) s using (${k})`
      : `create or replace temp table ${old} as
         select ${k}, first_seen_at, last_seen_at from (${staged}) limit 0`,
  );
}

/**
 * The months whose files change (those of the replaced rows and those of the merged ones) and
 * the number of staged rows (one merged row each), in one query.
 */
async function touchedMonths(
  tx: LakeTransaction,
  upsert: Upsert,
): Promise<{ touched: Set<string>; stagedRows: number }> {
  const reader = await tx.connection.runAndReadAll(
    `select month, sum(staged) from (
       select strftime(first_seen_at, '%Y-%m') as month, 0 as staged from ${upsert.old}
       union all
       select _month, 1 from (${merged(upsert)})
     ) group by month`,
  );
  const touched = new Set<string>();
  let stagedRows = 0;
  for (const [month, staged] of reader.getRows()) {
    touched.add(String(month));
    stagedRows += Number(staged);
  }
  return { touched, stagedRows };
}

/** Writes one month's file: its live rows not replaced, then the merged rows of the month. */
async function writeMonth(tx: LakeTransaction, upsert: Upsert, version: NewVersion, month: string) {
  const { table, keys, old } = upsert;
  const columns = table.columns.map((c) => id(c.name)).join(', ');
  const monthFiles = upsert.paths.filter((path) => monthOf(path.split('/').pop()!) === month);
  const kept = monthFiles.length
    ? `select ${columns} from ${source(monthFiles)} k anti join ${old} o using (${keys.join(', ')})
         union all by name `
    : '';
  await tx.write(
    `${kept}select ${columns} from (${merged(upsert)}) where _month = ${sqlString(month)}`,
    version,
    dataFileName(month, version.vid),
    { wide: table.wide },
  );
}
