import type { DuckDBConnection } from '@duckdb/node-api';
import { ENTITY_TABLES, type EntityTable, FACT_TABLES, type FactTable } from '../normalize/rows.js';
import { type BeforeRename, publishWarehouse } from './publish-warehouse.js';
import { ALL_SEGMENT, ENTITY_KEYS, FACT_KEYS, STAGED_UNIQUE, UNSEGMENTED_FACTS } from './table-keys.js';
import type { PublishResult, PublishSyncInput } from './types.js';
import { sqlIdentifier as id, sqlString } from './warehouse-paths.js';
import { writeRunRecord } from './write-run-record.js';

const STAGING = 'staging';

/**
 * Merges a closed staging file into the warehouse in one publish. Facts of the input's
 * snapshot date and segments are replaced (deduplicated on their key, so a unit fetched
 * twice never doubles), segment-less facts are replaced for the date when 'all' is among
 * the segments, entities are upserted keeping their first_seen_at, and the run is recorded.
 */
export async function publishSync(
  dataDir: string,
  input: PublishSyncInput,
  options: { beforeRename?: BeforeRename } = {},
): Promise<PublishResult> {
  const started = performance.now();
  const rowsByTable: Record<string, number> = {};
  await publishWarehouse(
    dataDir,
    async (connection) => {
      await connection.run(`attach ${sqlString(input.stagingPath)} as ${STAGING} (read_only)`);
      const staged = await stagedTables(connection);
      for (const table of FACT_TABLES) {
        if (!staged.has(table)) continue;
        const segmented = !UNSEGMENTED_FACTS.includes(table);
        if (!segmented && !input.segments.includes(ALL_SEGMENT)) continue;
        if (segmented && input.segments.length === 0) continue;
        rowsByTable[table] = await replaceFacts(connection, table, segmented, input);
      }
      for (const table of ENTITY_TABLES) {
        if (staged.has(table)) rowsByTable[table] = await upsertEntities(connection, table);
      }
      const rowsWritten = Object.values(rowsByTable).reduce((sum, n) => sum + n, 0);
      await writeRunRecord(connection, { ...input.run, rows_written: rowsWritten });
    },
    options,
  );
  const rowsWritten = Object.values(rowsByTable).reduce((sum, n) => sum + n, 0);
  return { rowsByTable, rowsWritten, durationMs: performance.now() - started };
}

async function stagedTables(connection: DuckDBConnection): Promise<Set<string>> {
  const reader = await connection.runAndReadAll(
    `select table_name from duckdb_tables() where database_name = '${STAGING}' and schema_name = 'main'`,
  );
  return new Set(reader.getRows().map((row) => String(row[0])));
}

async function replaceFacts(
  connection: DuckDBConnection,
  table: FactTable,
  segmented: boolean,
  input: PublishSyncInput,
): Promise<number> {
  const params: string[] = [input.snapshotDate];
  let bind = 'snapshot_date = $1::date';
  if (segmented) {
    params.push(...input.segments);
    bind += ` and segment in (${input.segments.map((_, i) => `$${i + 2}`).join(', ')})`;
  }
  await connection.run(`delete from main.${id(table)} where ${bind}`, params);
  // The last row appended for a key wins (a unit re-fetched after a resume).
  const result = await connection.run(
    `insert into main.${id(table)} by name ${latestStaged(table, FACT_KEYS[table], 'rowid desc', bind)}`,
    params,
  );
  return result.rowsChanged;
}

/**
 * The staged rows of a table, one per key: the first in `order`. Tables the extractor
 * never stages twice for a key (STAGED_UNIQUE) are taken as they are: a window over
 * millions of post rows is what would not fit the publish memory limit.
 */
function latestStaged(table: string, keys: readonly string[], order: string, where = 'true'): string {
  const select = `select * from ${STAGING}.main.${id(table)} where ${where}`;
  if (STAGED_UNIQUE.includes(table)) return select;
  return `${select} qualify row_number() over (partition by ${keys.map(id).join(', ')} order by ${order}) = 1`;
}

/**
 * Entities: a staged entity replaces its row, keeping the earlier first_seen_at and the
 * later last_seen_at. The old rows' keys and times are set aside first (a narrow temp
 * table), so the join's build side never carries the wide `raw` column, and posts (unique
 * when staged) skip the window: a 1M-post upsert stays within the publish memory limit.
 */
async function upsertEntities(connection: DuckDBConnection, table: EntityTable): Promise<number> {
  const keys = ENTITY_KEYS[table].map(id).join(', ');
  const latest = latestStaged(table, ENTITY_KEYS[table], 'last_seen_at desc, rowid desc');
  const target = `main.${id(table)}`;
  const old = id(`_old_${table}`);
  await connection.run(
    `create temp table ${old} as
     select ${keys}, first_seen_at, last_seen_at, rowid as old_rowid from ${target}
      where (${keys}) in (select ${keys} from ${STAGING}.main.${id(table)})`,
  );
  const result = await connection.run(
    `insert into ${target} by name
     select u.* replace (
              least(o.first_seen_at, u.first_seen_at) as first_seen_at,
              greatest(o.last_seen_at, u.last_seen_at) as last_seen_at)
       from (${latest}) u left join ${old} o using (${keys})`,
  );
  await connection.run(`delete from ${target} where rowid in (select old_rowid from ${old})`);
  await connection.run(`drop table ${old}`);
  return result.rowsChanged;
}
