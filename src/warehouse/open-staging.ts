import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import type { TableRows } from '../normalize/rows.js';
import { applyMigrations } from './apply-migrations.js';
import { inTransaction } from './in-transaction.js';
import { openWriter, STAGING_SETTINGS } from './open-database.js';
import { stagedUnits, UNIT_TABLES_WITHOUT_SEGMENT } from './staged-units.js';
import { TableAppender } from './table-appender.js';
import type { StagingWriter } from './types.js';
import { sqlIdentifier, stagingPath } from './warehouse-paths.js';

/**
 * Opens the private staging file <dataDir>/.staging/<name>.duckdb: created with the
 * warehouse tables if new, reopened as it is if it exists (a resumed sync continues in it).
 * Only its writer opens it; publishSync reads it once it is closed.
 * Memory stays bounded without explicit checkpoints: appended data past DuckDB's memory
 * limit spills to the file's temporary folder, and a commit (flush) that takes the WAL
 * past DuckDB's checkpoint_threshold checkpoints it into the file. (Checkpointing every
 * few hundred thousand rows as well cost a third of the load throughput and, through the
 * rewrites of partial row groups, more memory rather than less.)
 */
export async function openStaging(dataDir: string, name: string): Promise<StagingWriter> {
  const path = stagingPath(dataDir, name);
  mkdirSync(dirname(path), { recursive: true });
  const db = await openWriter(path, STAGING_SETTINGS);
  try {
    await applyMigrations(db.connection);
  } catch (error) {
    db.close();
    throw error;
  }
  const { connection } = db;
  const unitTables = await tablesWithColumns(db.connection);
  const staged = await stagedUnits(connection, unitTables.segmented);
  const appenders = new Map<string, TableAppender>();
  let closed = false;
  /** Calls run one at a time: the connection and appenders are not re-entrant. */
  let queue: Promise<unknown> = Promise.resolve();
  let closing: Promise<void> | undefined;

  const serial = <T>(work: () => Promise<T>): Promise<T> => {
    const run = queue.then(async () => {
      if (closed) throw new Error(`warehouse: staging ${path} is closed`);
      return work();
    });
    queue = run.catch(() => undefined);
    return run;
  };
  const appenderFor = async (table: string): Promise<TableAppender | undefined> => {
    let appender = appenders.get(table);
    if (!appender && unitTables.all.has(table)) {
      appender = await TableAppender.create(connection, table);
      appenders.set(table, appender);
    }
    return appender;
  };
  const flushAppenders = (): void => {
    for (const appender of appenders.values()) appender.flush();
  };
  /** The appenders' buffers into their tables in one commit (one WAL sync, not one per table). */
  const flushAll = () => inTransaction(connection, async () => flushAppenders());

  return {
    path,
    append: (rows: TableRows) =>
      serial(async () => {
        for (const [table, tableRows] of Object.entries(rows)) {
          if (!tableRows || tableRows.length === 0) continue;
          // A table the warehouse does not have is ignored, like an unknown column.
          const appender = await appenderFor(table);
          if (!appender) continue;
          staged.note(table, tableRows);
          appender.append(tableRows);
        }
      }),
    clearUnit: (segment: string, campaignId: string) =>
      serial(async () => {
        // A unit nothing was staged for (every unit of a new run) has nothing to delete.
        if (!staged.has(segment, campaignId)) return;
        await inTransaction(connection, async () => {
          flushAppenders();
          for (const table of unitTables.segmented) {
            await connection.run(
              `delete from ${sqlIdentifier(table)} where segment = $1 and campaign_id = $2`,
              [segment, campaignId],
            );
          }
          if (segment !== 'all') return;
          for (const table of UNIT_TABLES_WITHOUT_SEGMENT) {
            await connection.run(`delete from ${sqlIdentifier(table)} where campaign_id = $1`, [campaignId]);
          }
        });
        staged.forget(segment, campaignId);
      }),
    flush: () => serial(flushAll),
    close(): Promise<void> {
      closing ??= serial(async () => {
        closed = true;
        try {
          await flushAll();
          for (const appender of appenders.values()) appender.close();
          await connection.run('checkpoint');
        } finally {
          db.close();
        }
      });
      return closing;
    },
  };
}

async function tablesWithColumns(
  connection: DuckDBConnection,
): Promise<{ all: Set<string>; segmented: string[] }> {
  const reader = await connection.runAndReadAll(
    `select table_name,
            bool_or(column_name = 'segment') and bool_or(column_name = 'campaign_id') as unit
       from duckdb_columns()
      where database_name = current_database() and schema_name = 'main' and table_name <> 'schema_migrations'
      group by table_name order by table_name`,
  );
  const rows = reader.getRows();
  return {
    all: new Set(rows.map((row) => String(row[0]))),
    segmented: rows.filter((row) => row[1] === true).map((row) => String(row[0])),
  };
}
