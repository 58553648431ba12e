import { existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ALL_SEGMENT } from '../../../contracts/table-registry.js';
import { sqlIdentifier as id, sqlString } from '../../duckdb/warehouse-paths.js';
import { dataFileName, newVersionId, partitionName, versionsPath } from '../core/lake-layout.js';
import { fileColumns, type LakeTable } from '../core/lake-tables.js';
import { writeFactHistory } from '../facts/write-period.js';
import { type LakeTransaction, rowGroupSize } from '../lake-transaction.js';
import { importSeenKeys } from '../stream/stream-keys.js';

const OLD = 'previous_release';

/**
 * Converts a warehouse.duckdb of the previous release (tables) into the lake, keeping every
 * row: facts as month and day files per segment (writeFactHistory), the others in one pass
 * with COPY ... PARTITION_BY (stream tables by received date, entities by the month first seen),
 * its files moved into version directories and published with `tx` (the caller commits).
 * The stream tables' keys go into the exactly-once set. A table the old file lacks stays
 * empty; a column it lacks reads as NULL.
 */
export async function convertWarehouse(tx: LakeTransaction, path: string): Promise<void> {
  const { connection } = tx;
  await connection.run(`attach ${sqlString(path)} as ${OLD} (read_only)`);
  try {
    const reader = await connection.runAndReadAll(
      `select table_name, column_name from duckdb_columns() where database_name = '${OLD}' and schema_name = 'main'`,
    );
    const oldColumns = new Map<string, Set<string>>();
    for (const [table, column] of reader.getRows()) {
      const set = oldColumns.get(String(table)) ?? new Set<string>();
      set.add(String(column));
      oldColumns.set(String(table), set);
    }
    for (const table of tx.tables.values()) {
      const present = oldColumns.get(table.name);
      if (!present) continue;
      const columns = fileColumns(table)
        .filter((c) => present.has(c.name))
        .map((c) => id(c.name));
      const from = `${OLD}.main.${id(table.name)}`;
      if (table.kind === 'whole' || table.kind === 'entity') await convertWhole(tx, table, columns, from);
      else if (table.kind === 'fact') await convertFacts(tx, table, columns, from);
      else await convertPartitioned(tx, table, columns, from);
    }
    if (oldColumns.has('stream_documents') && oldColumns.has('stream_deliveries'))
      await importSeenKeys(tx, `${OLD}.main.stream_documents`, `${OLD}.main.stream_deliveries`);
  } finally {
    await connection.run(`detach ${OLD}`);
  }
}

async function convertWhole(tx: LakeTransaction, table: LakeTable, columns: string[], from: string) {
  const version = tx.newVersion(table.name, 'v');
  if (table.kind === 'entity') {
    // Entities: one file per month first seen (see upsertEntities).
    await partitionedCopy(
      tx,
      table,
      `select ${columns.join(', ')}, strftime(first_seen_at, '%Y-%m') as _part from ${from}`,
      version.dir,
      (month, file, i) => tx.adopt(file, version, dataFileName(i ? `${month}-${i}` : month, version.vid)),
    );
  } else {
    await tx.write(`select ${columns.join(', ')} from ${from}`, version, dataFileName('data', version.vid), {
      wide: table.wide,
    });
  }
  tx.publish(join(tx.lake, table.name), version);
}

/** A fact table into one version of month and day files (writeFactHistory). */
async function convertFacts(tx: LakeTransaction, table: LakeTable, columns: string[], from: string) {
  const segment = table.segmented ? 'segment' : `'${ALL_SEGMENT}'`;
  const reader = await tx.connection.runAndReadAll(
    `select distinct strftime(snapshot_date, '%Y-%m-%d'), ${segment} from ${from} order by 1, 2`,
  );
  const days = reader.getRows().map(([date, seg]) => ({ date: String(date), segment: String(seg) }));
  if (days.length === 0) return;
  const version = tx.newVersion(table.name, 'v');
  await writeFactHistory(tx, table, version, days, (dates, seg) => {
    const where = `strftime(snapshot_date, '%Y-%m-%d') in (${dates.map(sqlString).join(', ')})`;
    return `select ${columns.join(', ')} from ${from} where ${where}${table.segmented ? ` and segment = ${sqlString(seg)}` : ''}`;
  });
  tx.publish(join(tx.lake, table.name), version);
}

async function convertPartitioned(tx: LakeTransaction, table: LakeTable, columns: string[], from: string) {
  const column = table.partitionColumn!;
  const source = table.kind === 'stream' ? `cast(received_at as date)` : id(column);
  // Rows of one date land in one version; within it one file ('c': a stream day converted
  // whole is a compacted day).
  const versions = new Map<string, ReturnType<LakeTransaction['newVersion']>>();
  const segmented = table.segmented;
  const select = `select ${columns.join(', ')}, strftime(${source}, '%Y-%m-%d') || ${
    segmented ? `'~' || segment` : "''"
  } as _part from ${from}`;
  const scratch = join(versionsPath(tx.lake, table.name), `convert.${newVersionId()}`);
  try {
    await partitionedCopy(tx, table, select, scratch, (part, file, i) => {
      const [date, segment] = part.split('~') as [string, string | undefined];
      let version = versions.get(date);
      if (!version) {
        version = tx.newVersion(table.name, date);
        versions.set(date, version);
      }
      const label = segment ?? (table.kind === 'stream' ? 'c' : 'all');
      tx.adopt(file, version, dataFileName(i ? `${label}-${i}` : label, version.vid));
    });
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  for (const [date, version] of versions)
    tx.publish(join(tx.lake, table.name, partitionName(column, date)), version);
}

/**
 * COPY ... PARTITION_BY (_part) into `dir`, then `place(part, file, index)` for every file
 * written (DuckDB escapes the partition value in the folder name; `_part` is decoded back).
 */
async function partitionedCopy(
  tx: LakeTransaction,
  table: LakeTable,
  select: string,
  dir: string,
  place: (part: string, file: string, index: number) => void,
): Promise<void> {
  const scratch = `${dir}.partitions`;
  mkdirSync(dirname(scratch), { recursive: true });
  await tx.connection.run(
    `copy (${select}) to ${sqlString(scratch)} (format parquet, partition_by (_part), row_group_size ${rowGroupSize(table.wide)})`,
  );
  try {
    if (!existsSync(scratch)) return; // an empty table
    for (const folder of readdirSync(scratch).sort()) {
      const part = decodeURIComponent(folder.slice('_part='.length));
      const files = readdirSync(join(scratch, folder)).sort();
      for (const [i, file] of files.entries()) place(part, join(scratch, folder, file), i);
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
