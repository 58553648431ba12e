import { STREAM_TABLES, type StreamTable } from '../contracts/table-registry.js';
import { type BeforeRename, publishWarehouse, StreamAppend, writeHooks } from './lake/index.js';
import { publishResult } from './publish-result.js';
import type { PublishResult, StreamBatch } from './types.js';

/** Where a batch holds each stream table's rows. */
const BATCH_ROWS: Record<StreamTable, 'documents' | 'deliveries'> = {
  stream_documents: 'documents',
  stream_deliveries: 'deliveries',
};

/**
 * The sink loader's publish: lands a batch of pushed documents, deliveries and hook states.
 * Small and frequent (every few seconds), so its cost is the batch's: each stream table's new
 * rows go into new part files, exactly once, today's parts merged as they accumulate (StreamAppend); hooks (a few rows) are rewritten
 * when the batch has any and one changed.
 */
export async function publishStream(
  dataDir: string,
  batch: StreamBatch,
  options: {
    beforeRename?: BeforeRename;
    /** Files per tier before today's parts merge (STREAM_MERGE_FANOUT; Infinity: only compaction). */
    mergeFanout?: number;
  } = {},
): Promise<PublishResult> {
  const started = performance.now();
  const { mergeFanout, ...publishOptions } = options;
  const rowsByTable: Record<string, number> = { stream_documents: 0, stream_deliveries: 0, hooks: 0 };
  const stream = new StreamAppend(dataDir, mergeFanout);
  try {
    await publishWarehouse(
      dataDir,
      async (tx) => {
        stream.begin(tx);
        for (const table of STREAM_TABLES)
          rowsByTable[table] = await stream.append(tx, table, batch[BATCH_ROWS[table]]);
        if (batch.hooks.length) rowsByTable.hooks = await writeHooks(tx, batch.hooks);
      },
      { ...publishOptions, beforeCommit: () => stream.record(), afterCommit: () => stream.settle() },
    );
  } finally {
    stream.close();
  }
  return publishResult(rowsByTable, started);
}
