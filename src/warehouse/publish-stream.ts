import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { DuckDBConnection } from '@duckdb/node-api';
import type { Row } from '../normalize/rows.js';
import { type BeforeRename, publishWarehouse } from './publish-warehouse.js';
import { TableAppender } from './table-appender.js';
import type { PublishResult, StreamBatch } from './types.js';
import { sqlIdentifier as id } from './warehouse-paths.js';

interface StreamTableLoad {
  readonly table: 'stream_documents' | 'stream_deliveries' | 'hooks';
  readonly key: readonly string[];
  /** Which duplicate of a key the batch keeps. */
  readonly keep: string;
  /** insert: keys already in the warehouse are skipped; upsert: they are replaced. */
  readonly mode: 'insert' | 'upsert';
}

/** Rows appended (and flushed) between two yields to the event loop. */
const APPEND_SLICE = 2_048;

const LOADS: readonly StreamTableLoad[] = [
  // A document is kept once per hook, as first received (deliveries are at-least-once).
  {
    table: 'stream_documents',
    key: ['hook_id', 'document_id'],
    keep: 'received_at asc, _seq asc',
    mode: 'insert',
  },
  { table: 'stream_deliveries', key: ['delivery_id'], keep: '_seq asc', mode: 'insert' },
  // The batch's last state of a hook is its latest.
  { table: 'hooks', key: ['hook_id'], keep: '_seq desc', mode: 'upsert' },
];

/**
 * The sink loader's publish: lands a batch of pushed documents, deliveries and hook states.
 * Small and frequent (every few seconds), so the work is a few set-based statements on
 * appended scratch tables.
 */
export async function publishStream(
  dataDir: string,
  batch: StreamBatch,
  options: { beforeRename?: BeforeRename } = {},
): Promise<PublishResult> {
  const started = performance.now();
  const rowsByTable: Record<string, number> = {};
  const rowsOf = {
    stream_documents: batch.documents,
    stream_deliveries: batch.deliveries,
    hooks: batch.hooks,
  };
  await publishWarehouse(
    dataDir,
    async (connection) => {
      for (const load of LOADS)
        rowsByTable[load.table] = await loadTable(connection, load, rowsOf[load.table]);
    },
    options,
  );
  const rowsWritten = Object.values(rowsByTable).reduce((sum, n) => sum + n, 0);
  return { rowsByTable, rowsWritten, durationMs: performance.now() - started };
}

async function loadTable(
  connection: DuckDBConnection,
  load: StreamTableLoad,
  rows: readonly Row[],
): Promise<number> {
  if (rows.length === 0) return 0;
  const table = id(load.table);
  const scratch = id(`_load_${load.table}`);
  await connection.run(`create temp table ${scratch} as select * from main.${table} limit 0`);
  await connection.run(`alter table ${scratch} add column _seq bigint`);
  const appender = await TableAppender.create(connection, `_load_${load.table}`, 'temp');
  // In slices with a yield between: the appender's flush is a synchronous native call, and
  // the sink answers pushes on this event loop (20,000 documents at once held it ~250 ms).
  for (let from = 0; from < rows.length; from += APPEND_SLICE) {
    appender.append(rows.slice(from, from + APPEND_SLICE).map((row, i) => ({ ...row, _seq: from + i })));
    appender.flush();
    await yieldToLoop();
  }
  appender.close();
  const keys = load.key.map(id);
  const match = keys.map((k) => `t.${k} = b.${k}`).join(' and ');
  if (load.mode === 'upsert') {
    await connection.run(
      `delete from main.${table} t where exists (select 1 from ${scratch} b where ${match})`,
    );
  }
  const skipExisting =
    load.mode === 'insert' ? `where not exists (select 1 from main.${table} t where ${match})` : '';
  const result = await connection.run(
    `insert into main.${table} by name
     select * exclude (_seq) from ${scratch} b ${skipExisting}
     qualify row_number() over (partition by ${keys.map((k) => `b.${k}`).join(', ')} order by ${load.keep}) = 1`,
  );
  await connection.run(`drop table ${scratch}`);
  return result.rowsChanged;
}
