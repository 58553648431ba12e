import { existsSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { PUBLISH_SETTINGS } from '../duckdb/open-database.js';
import { TableAppender } from '../duckdb/table-appender.js';
import { sqlIdentifier as id, STAGING_DIR_NAME, sqlString } from '../duckdb/warehouse-paths.js';
import { wellFormedJson } from '../duckdb/well-formed-text.js';
import { fsyncPath } from './core/fsync-path.js';
import { copyJsonAsText } from './core/json-as-text-copy.js';
import { dataFileName, labelOf, lakePath, newVersionId } from './core/lake-layout.js';
import type { LakeTable } from './core/lake-tables.js';
import { type LinkedVersion, linkedVersion } from './core/link-target.js';
import { openLakeSession } from './core/open-lake-session.js';
import { LakeTransaction } from './lake-transaction.js';

/**
 * Written once every file of the lake had its JSON columns read (healBrokenJson): the files
 * written since came through the appender, which makes their text well formed
 * (duckdb/well-formed-text.ts), so no publish reads them again.
 */
export const JSON_CHECKED_FILE = '_json-checked.json';

/** DuckDB's refusal of a Parquet file's JSON column (the escape of a lone surrogate, `\ud800`). */
const BROKEN_JSON = /Invalid JSON found in Parquet file/;
/** The escape of a surrogate in JSON text (RE2, in a SQL string: a backslash, then `u` and D8 to DF). */
const SURROGATE_ESCAPE_SQL = "'\\\\u[dD][89a-fA-F]'";
const FIX_TABLE = 'json_repairs';

/**
 * Heals a lake written before text was made well formed: a Parquet file whose JSON column
 * holds the escape of a lone surrogate cannot be read by DuckDB at all (every query of its
 * table, every publish that rewrites it fails). Call under the publish lock, before a publish's
 * work. Once per lake (JSON_CHECKED_FILE), or again with `recheck` (`catalog rebuild`): reads the
 * JSON columns of every live file of the tables that have one (one query per table or day when
 * all is well), and rewrites each file DuckDB refuses with its JSON text repaired (lone
 * surrogates become U+FFFD), under the lake's rules: a new file of a new unique name in a new
 * version of the table (or day) holding every other file as a hard link, swapped in by one
 * rename, the old version kept for the retention period. A version whose file cannot be
 * repaired is left as it was, and the publish goes on (`recheck`: the error is thrown, so
 * `catalog rebuild` says why). Returns the files rewritten.
 */
export async function healBrokenJson(dataDir: string, options: { recheck?: boolean } = {}): Promise<number> {
  const lake = lakePath(dataDir);
  if (!existsSync(lake) || (!options.recheck && existsSync(join(lake, JSON_CHECKED_FILE)))) return 0;
  const session = await openLakeSession(dataDir, PUBLISH_SETTINGS);
  const { connection, tables } = session.tx;
  try {
    let healed = 0;
    for (const table of tables.values()) {
      const json = table.columns.filter((c) => c.type === 'JSON').map((c) => c.name);
      if (json.length === 0) continue;
      for (const link of tableLinks(lake, table)) {
        // One transaction per version: one that fails leaves only its own version as it was.
        const tx = new LakeTransaction(lake, connection, tables);
        try {
          const files = await healVersion(tx, table, link, json);
          await tx.commit();
          healed += files;
        } catch (error) {
          if (options.recheck) throw error;
        } finally {
          tx.abort();
        }
      }
    }
    markChecked(lake);
    return healed;
  } finally {
    session.tx.abort();
    await session.close();
  }
}

/** The links of a table's live versions: the table's own, or one per partition (a stream table's days). */
function tableLinks(lake: string, table: LakeTable): string[] {
  const root = join(lake, table.name);
  if (!table.partitionColumn) return [root];
  if (!existsSync(root)) return [];
  return readdirSync(root)
    .filter((entry) => entry.startsWith(`${table.partitionColumn}=`))
    .map((entry) => join(root, entry));
}

/** Rewrites the files of one version DuckDB cannot read, in a new version of it; returns how many. */
async function healVersion(
  tx: LakeTransaction,
  table: LakeTable,
  link: string,
  json: string[],
): Promise<number> {
  const current = linkedVersion(link);
  if (!current || current.files.length === 0) return 0;
  const path = (place: string) => join(current.dir, place);
  if (await readable(tx, current.files.map(path), json)) return 0;
  const broken: string[] = [];
  for (const place of current.files) if (!(await readable(tx, [path(place)], json))) broken.push(place);
  const { version } = tx.nextVersion(
    link,
    table.name,
    versionPrefix(current),
    (place) => !broken.includes(place),
    current,
  );
  for (const place of broken) {
    const name = join(dirname(place), dataFileName(labelOf(place) ?? 'healed', newVersionId()));
    await rewriteRepaired(tx, path(place), (select) =>
      tx.write(select, version, name, { wide: table.wide, keepEmpty: true }),
    );
  }
  return broken.length;
}

/** Whether DuckDB reads the JSON columns of `paths`; false only for its refusal of their JSON. */
async function readable(tx: LakeTransaction, paths: string[], json: string[]): Promise<boolean> {
  const files = paths.map(sqlString).join(', ');
  try {
    await tx.connection.run(
      `select ${json.map((c) => `sum(length(${id(c)}))`).join(', ')} from read_parquet([${files}], union_by_name = true)`,
    );
    return true;
  } catch (error) {
    if (BROKEN_JSON.test((error as Error).message)) return false;
    throw error;
  }
}

/**
 * Writes `path`'s rows, in their order, with the JSON text of those whose text holds a
 * surrogate's escape repaired: read through a copy whose JSON columns read as text
 * (copyJsonAsText), repaired here (wellFormedJson), and written back as JSON by `write` (the
 * cast checks the result).
 */
async function rewriteRepaired(
  tx: LakeTransaction,
  path: string,
  write: (select: string) => Promise<number>,
): Promise<void> {
  // Beside the publish's other work files (<dataDir>/.staging), never in a live version.
  const text = join(dirname(tx.lake), STAGING_DIR_NAME, `json-as-text-${newVersionId()}.parquet`);
  const { connection } = tx;
  try {
    const json = copyJsonAsText(path, text);
    const source = `read_parquet(${sqlString(text)}, file_row_number = true)`;
    const reader = await connection.runAndReadAll(
      `select file_row_number, ${json.map(id).join(', ')} from ${source}
        where ${json.map((c) => `regexp_matches(${id(c)}, ${SURROGATE_ESCAPE_SQL})`).join(' or ')}`,
    );
    await connection.run(
      `create or replace temp table ${FIX_TABLE} (n bigint, ${json.map((c) => `${id(c)} varchar`).join(', ')})`,
    );
    const appender = await TableAppender.create(connection, FIX_TABLE, 'temp', ['n', ...json]);
    appender.append(
      reader.getRows().map(([n, ...values]) => ({
        n: Number(n),
        ...Object.fromEntries(
          json.map((c, i) => [c, typeof values[i] === 'string' ? wellFormedJson(values[i]) : null]),
        ),
      })),
    );
    appender.close();
    const described = await connection.runAndReadAll(
      `describe select * from read_parquet(${sqlString(text)})`,
    );
    const columns = described.getRows().map((row) => String(row[0]));
    const select = columns.map((c) =>
      json.includes(c) ? `coalesce(f.${id(c)}, p.${id(c)})::json as ${id(c)}` : `p.${id(c)}`,
    );
    await write(
      `select ${select.join(', ')} from ${source} p left join temp.${FIX_TABLE} f on f.n = p.file_row_number
        order by p.file_row_number`,
    );
  } finally {
    rmSync(text, { force: true });
    await connection.run(`drop table if exists temp.${FIX_TABLE}`);
  }
}

/** A version folder's prefix (`v`, a stream day's date): its name without `.<vid>`. */
function versionPrefix(current: LinkedVersion): string {
  const name = basename(current.dir);
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(0, dot) : name;
}

function markChecked(lake: string): void {
  const path = join(lake, JSON_CHECKED_FILE);
  const temp = `${path}.tmp-${process.pid}`;
  writeFileSync(temp, `${JSON.stringify({ checkedAt: new Date().toISOString() })}\n`);
  fsyncPath(temp);
  renameSync(temp, path);
  fsyncPath(lake);
}
