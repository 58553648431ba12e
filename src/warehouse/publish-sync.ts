import type { DuckDBConnection } from '@duckdb/node-api';
import { ENTITY_TABLES, FACT_TABLES } from '../normalize/rows.js';
import { type BeforeRename, publishWarehouse } from './publish-warehouse.js';
import { ALL_SEGMENT, ENTITY_KEYS, FACT_KEYS, UNSEGMENTED_FACTS } from './table-keys.js';
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
  table: string,
  segmented: boolean,
  input: PublishSyncInput,
): Promise<number> {
  const key = FACT_KEYS[table as keyof typeof FACT_KEYS].map(id).join(', ');
  const params: string[] = [input.snapshotDate];
  let bind = 'snapshot_date = $1::date';
  if (segmented) {
    params.push(...input.segments);
    bind += ` and segment in (${input.segments.map((_, i) => `$${i + 2}`).join(', ')})`;
  }
  await connection.run(`delete from main.${id(table)} where ${bind}`, params);
  // The last row appended for a key wins (a unit re-fetched after a resume).
  const result = await connection.run(
    `insert into main.${id(table)} by name
     select * from ${STAGING}.main.${id(table)} where ${bind}
     qualify row_number() over (partition by ${key} order by rowid desc) = 1`,
    params,
  );
  return result.rowsChanged;
}

async function upsertEntities(connection: DuckDBConnection, table: string): Promise<number> {
  const keys = ENTITY_KEYS[table as keyof typeof ENTITY_KEYS].map(id);
  const scratch = id(`_upsert_${table}`);
  await connection.run(
    `create temp table ${scratch} as
     select s.* replace (
              least(m.first_seen_at, s.first_seen_at) as first_seen_at,
              greatest(m.last_seen_at, s.last_seen_at) as last_seen_at)
       from (select * from ${STAGING}.main.${id(table)}
             qualify row_number() over (partition by ${keys.join(', ')} order by last_seen_at desc, rowid desc) = 1) s
       left join main.${id(table)} m using (${keys.join(', ')})`,
  );
  const match = keys.map((k) => `t.${k} = u.${k}`).join(' and ');
  await connection.run(
    `delete from main.${id(table)} t where exists (select 1 from ${scratch} u where ${match})`,
  );
  const result = await connection.run(`insert into main.${id(table)} by name select * from ${scratch}`);
  await connection.run(`drop table ${scratch}`);
  return result.rowsChanged;
}
