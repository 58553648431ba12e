import { ALL_SEGMENT, type TableKind } from '../contracts/table-registry.js';
import {
  type BeforeRename,
  isDay,
  type LakeTable,
  type LakeTransaction,
  publishWarehouse,
  replaceFacts,
  upsertEntities,
  writeRunRecord,
} from './lake/index.js';
import { publishResult, rowsWritten } from './publish-result.js';
import { attachStaging, stagedRows } from './staging/staged-rows.js';
import type { PublishResult, PublishSyncInput } from './types.js';

/**
 * Publishes a closed staging file into the lake: each staged table goes to the writer for its
 * kind, then the run is recorded. Facts of the input's snapshot date and segments are
 * replaced (deduplicated on their key, so a unit fetched twice never doubles); segment-less
 * facts are replaced for the date when 'all' is among the segments. Entities are upserted
 * keeping their first_seen_at. Its cost follows the date's rows, not the history.
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
      const staged = await attachStaging(tx.connection, input.stagingPath);
      for (const table of tx.tables.values()) {
        const write = WRITERS[table.kind];
        if (!write || !staged.has(table.name)) continue;
        const rows = await write(tx, table, input);
        if (rows !== undefined) rowsByTable[table.name] = rows;
      }
      await writeRunRecord(tx, { ...input.run, rows_written: rowsWritten(rowsByTable) });
    },
    options,
  );
  return publishResult(rowsByTable, started);
}

/** Writes a staged table into the lake; returns its rows written (undefined: nothing to replace). */
type StagedWriter = (
  tx: LakeTransaction,
  table: LakeTable,
  input: PublishSyncInput,
) => Promise<number | undefined>;

/** The writer of each kind of table a sync stages (the sink writes the stream and whole tables). */
const WRITERS: Partial<Record<TableKind, StagedWriter>> = {
  fact: async (tx, table, input) => {
    const segments = table.segmented
      ? input.segments
      : input.segments.includes(ALL_SEGMENT)
        ? [ALL_SEGMENT]
        : [];
    if (segments.length === 0) return undefined;
    return replaceFacts(tx, table, segments, input.snapshotDate, (where) =>
      stagedRows(table, 'rowid desc', where),
    );
  },
  entity: (tx, table) => upsertEntities(tx, table, stagedRows(table, 'last_seen_at desc, rowid desc')),
};
