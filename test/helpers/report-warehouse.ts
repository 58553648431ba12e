/**
 * A warehouse to report on: the simulator synced on four consecutive nights (segment
 * `video` beside `all`), then streamed documents of two search types over three days
 * published as the sink's loader does.
 */
import type { Row } from '../../src/normalize/rows.js';
import { publishStream } from '../../src/warehouse/publish-stream.js';
import { startSim, sync, syncConfig, tempDataDir } from './sync-harness.js';
import { streamDocument } from './warehouse-stream-rows.js';

export const REPORT_NIGHTS = ['2026-11-17', '2026-11-18', '2026-11-19', '2026-11-20'];
export const REPORT_SEGMENT = 'video';

const DAY_MS = 86_400_000;

export async function reportWarehouse(): Promise<string> {
  const dataDir = tempDataDir();
  const sim = await startSim({ startTime: new Date(`${REPORT_NIGHTS[0]}T22:30:00Z`) });
  try {
    const config = syncConfig(sim, dataDir, {
      segments: [{ name: REPORT_SEGMENT, sources: ['tiktok', 'instagram_stories'] }],
    });
    for (const _night of REPORT_NIGHTS) {
      await sync(sim, config);
      sim.clock.advance(DAY_MS);
    }
  } finally {
    await sim.close();
  }
  await publishStream(dataDir, {
    documents: streamDocuments(),
    deliveries: [
      { delivery_id: 1, hook_id: 'h1', received_at: '2026-11-20T23:00:00Z', documents: 9, bytes: 9_000 },
      { delivery_id: 2, hook_id: 'h2', received_at: '2026-11-20T23:05:00Z', documents: 5, bytes: 5_000 },
    ],
    hooks: [],
  });
  return dataDir;
}

/** Editorial documents (search 7) on hook h1 and social ones (search 9) on h2, over three days. */
function streamDocuments(): Row[] {
  const docs: Row[] = [];
  const days = ['2026-11-18', '2026-11-19', '2026-11-20'];
  days.forEach((day, d) => {
    for (let i = 0; i <= d + 2; i++)
      docs.push(streamDocument('h1', `e-${day}-${i}`, `${day}T0${i}:00:00Z`, '2026-11-20T23:00:00Z'));
    for (let i = 0; i < 3 - d; i++) {
      docs.push({
        ...streamDocument('h2', `s-${day}-${i}`, `${day}T1${i}:00:00Z`, '2026-11-20T23:05:00Z'),
        search_id: 9,
        search_type: 'social',
      });
    }
  });
  return docs;
}
