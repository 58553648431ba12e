import { join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { dataFileName, isDay, partitionName } from './lake/lake-layout.js';
import { fileColumns, type LakeTable } from './lake/lake-tables.js';
import type { LakeTransaction } from './lake/lake-transaction.js';
import { anchorFile, nextLatest, readLatest, segmentOfFile, writeLatest } from './lake/latest-tree.js';
import { upsertEntities } from './lake/upsert-entities.js';
import { type BeforeRename, publishWarehouse } from './publish-warehouse.js';
import { ALL_SEGMENT, ENTITY_KEYS, FACT_KEYS, STAGED_UNIQUE } from './table-keys.js';
import type { PublishResult, PublishSyncInput } from './types.js';
import { sqlIdentifier as id, sqlString } from './warehouse-paths.js';
import { writeRunRecord } from './write-run-record.js';

const STAGING = 'staging';

/**
 * Publishes a closed staging file into the lake. Facts of the input's snapshot date and
 * segments are replaced: the date's partition gets a new version in which each replaced
 * segment has a new file (deduplicated on its key, so a unit fetched twice never doubles)
 * and the other segments' files are hard links; segment-less facts are replaced for the date
 * when 'all' is among the segments. Entities are upserted keeping their first_seen_at (only
 * the files holding entities the run saw are rewritten), the latest-snapshot trees follow,
 * and the run is recorded. Its cost follows the date's rows, not the history.
 */
export async function publishSync(
  dataDir: string,
  input: PublishSyncInput,
  options: { beforeRename?: BeforeRename } = {},
): Promise<PublishResult> {
  const started = performance.now();
  if (!isDay(input.snapshotDate))
    throw new Error(`warehouse: snapshot date ${input.snapshotDate} is not YYYY-MM-DD`);
  const rowsByTable: Record<string, number> = {};
  await publishWarehouse(
    dataDir,
    async (tx) => {
      const { connection } = tx;
      await connection.run(`attach ${sqlString(input.stagingPath)} as ${STAGING} (read_only)`);
      const staged = await stagedTables(connection);
      for (const table of tx.tables.values()) {
        if (!staged.has(table.name)) continue;
        if (table.kind === 'fact') {
          const segments = table.segmented
            ? input.segments
            : input.segments.includes(ALL_SEGMENT)
              ? [ALL_SEGMENT]
              : [];
          if (segments.length)
            rowsByTable[table.name] = await replaceFacts(tx, table, segments, input.snapshotDate);
        } else if (table.kind === 'whole' && table.name in ENTITY_KEYS) {
          rowsByTable[table.name] = await upsertEntities(
            tx,
            table,
            stagedRows(
              table.name,
              ENTITY_KEYS[table.name as keyof typeof ENTITY_KEYS],
              'last_seen_at desc, rowid desc',
            ),
          );
        }
      }
      const rowsWritten = Object.values(rowsByTable).reduce((sum, n) => sum + n, 0);
      await writeRunRecord(tx, { ...input.run, rows_written: rowsWritten });
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

/**
 * The staged rows of a table, one per key: the first in `order`. Tables the extractor
 * never stages twice for a key (STAGED_UNIQUE) are taken as they are: a window over
 * millions of post rows is what would not fit the publish memory limit. A table without
 * documented keys (none today) is taken as staged.
 */
function stagedRows(
  table: string,
  keys: readonly string[] | undefined,
  order: string,
  where = 'true',
): string {
  const select = `select * from ${STAGING}.main.${id(table)} where ${where}`;
  if (STAGED_UNIQUE.includes(table) || !keys) return select;
  return `${select} qualify row_number() over (partition by ${keys.map(id).join(', ')} order by ${order}) = 1`;
}

/** Replaces the facts of one date for `segments` (['all'] for a segment-less table). */
async function replaceFacts(
  tx: LakeTransaction,
  table: LakeTable,
  segments: readonly string[],
  date: string,
): Promise<number> {
  const link = join(tx.lake, table.name, partitionName('snapshot_date', date));
  // The other segments' files are kept; the replaced ones and the schema anchor's are not.
  const { version, kept } = tx.nextVersion(link, table.name, date, (name) => {
    const segment = segmentOfFile(name);
    return segment !== undefined && !segments.includes(segment);
  });
  const files = new Map(kept.map((name) => [segmentOfFile(name)!, join(version.dir, name)]));
  const keys = (FACT_KEYS as Record<string, readonly string[] | undefined>)[table.name];
  const columns = fileColumns(table)
    .map((c) => id(c.name))
    .join(', ');
  let rows = 0;
  for (const segment of segments) {
    const where = `snapshot_date = ${sqlString(date)}::date${table.segmented ? ` and segment = ${sqlString(segment)}` : ''}`;
    const name = dataFileName(segment, version.vid);
    const written = await tx.write(
      `select ${columns} from (${stagedRows(table.name, keys, 'rowid desc', where)})`,
      version,
      name,
    );
    if (written > 0) files.set(segment, join(version.dir, name));
    rows += written;
  }
  const latest = nextLatest(tx.lake, table, readLatest(tx.lake, table.name), date, files, segments);
  const anchor = latest && anchorFile(tx.lake, table);
  if (latest && anchor) writeLatest(tx, table, latest, anchor);
  return rows;
}
