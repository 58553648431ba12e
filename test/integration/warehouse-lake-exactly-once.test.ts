import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lakePath, linkedFiles, StreamKeys } from '../../src/warehouse/lake/testing.js';
import { publishStream } from '../../src/warehouse/publish-stream.js';
import { queryReadOnly } from '../../src/warehouse/read/query-read-only.js';
import type { StreamBatch } from '../../src/warehouse/types.js';
import { tempDirEachTest } from '../helpers/temp-dir.js';
import { streamDocument } from '../helpers/warehouse-stream-rows.js';

function batch(ids: string[], deliveryId: number): StreamBatch {
  return {
    documents: ids.map((id) => streamDocument('h1', id, '2026-11-21T08:00:00Z', '2026-11-21T09:00:00Z')),
    deliveries: [
      {
        delivery_id: deliveryId,
        hook_id: 'h1',
        received_at: '2026-11-21T09:00:00Z',
        documents: ids.length,
        bytes: 9,
      },
    ],
    hooks: [],
  };
}

async function count(dir: string, table: string): Promise<number> {
  return (await queryReadOnly(dir, `select count(*) from ${table}`)).rows[0]![0] as number;
}

describe('exactly-once across a crash between the lake and the key set', () => {
  const data = tempDirEachTest('cw-lake-keys-');

  it('keys recorded for a part that never went live are dropped: the redelivered documents land', async () => {
    await publishStream(data.dir, batch(['a'], 1));
    const lake = lakePath(data.dir);
    // A publish that recorded its keys, then died before swapping its partition link.
    const keys = StreamKeys.open(data.dir, lake);
    keys.record([
      {
        table: 'stream_documents',
        link: join(lake, 'stream_documents', 'received_date=2026-11-21'),
        file: 'p.never0written.parquet',
        documents: [['h1', 'b']],
      },
      {
        table: 'stream_deliveries',
        link: join(lake, 'stream_deliveries', 'received_date=2026-11-21'),
        file: 'p.never0written.parquet',
        deliveries: [2],
      },
    ]);
    expect(keys.hasDocument('h1', 'b')).toBe(true);
    keys.close();
    await publishStream(data.dir, batch(['b'], 2));
    expect(await count(data.dir, 'stream_documents')).toBe(2);
    expect(await count(data.dir, 'stream_deliveries')).toBe(2);
  });

  it('keys of a part that went live before the crash are kept: a redelivery is not stored twice', async () => {
    await publishStream(data.dir, batch(['a', 'b'], 1));
    const lake = lakePath(data.dir);
    const link = join(lake, 'stream_documents', 'received_date=2026-11-21');
    const [live] = linkedFiles(link);
    // The publish swapped its link, then died before clearing the pending mark.
    const keys = StreamKeys.open(data.dir, lake);
    keys.record([{ table: 'stream_documents', link, file: live!, documents: [['h1', 'a']] }]);
    keys.close();
    await publishStream(data.dir, batch(['a', 'b', 'c'], 1));
    expect(await count(data.dir, 'stream_documents')).toBe(3);
    expect(await count(data.dir, 'stream_deliveries')).toBe(1);
    const reopened = StreamKeys.open(data.dir, lake);
    expect(reopened.hasDocument('h1', 'a')).toBe(true);
    reopened.close();
  });
});
