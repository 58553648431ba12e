import { describe, expect, it } from 'vitest';
import type { Row } from '../../src/normalize/rows.js';
import { publishedPath } from '../../src/warehouse/duckdb/warehouse-paths.js';
import { maintainLake } from '../../src/warehouse/lake/index.js';
import { publishStream } from '../../src/warehouse/publish-stream.js';
import type { StreamBatch } from '../../src/warehouse/types.js';
import { tempDirEachTest } from '../helpers/temp-dir.js';
import { type Child, spawnHelper } from '../helpers/warehouse-child.js';
import { streamDocument } from '../helpers/warehouse-stream-rows.js';
import { stageAndPublish } from '../helpers/warehouse-temp.js';

interface Result {
  queries: number;
  failures: string[];
  inconsistent: State[];
  mixed: number;
}

interface State {
  docs: number;
  announced: number;
  duplicates: number;
  days: number[];
}

/** Ten new documents of hook h1 received on `day` and the delivery announcing them. */
function batch(n: number, day = '2026-11-21'): StreamBatch {
  const documents: Row[] = [];
  for (let i = 0; i < 10; i += 1)
    documents.push(streamDocument('h1', `d${n}-${i}`, `${day}T08:00:00Z`, `${day}T09:00:00Z`));
  // A document of an earlier batch, delivered again: kept once.
  if (n > 1) documents.push(streamDocument('h1', `d${n - 1}-0`, `${day}T08:00:00Z`, `${day}T09:00:00Z`));
  return {
    documents,
    deliveries: [
      { delivery_id: n, hook_id: 'h1', received_at: `${day}T09:00:00Z`, documents: 10, bytes: 1000 },
    ],
    hooks: [],
  };
}

/** Reads the reader's lines until one reports `wanted` (a publish it must see without reopening). */
async function seen(reader: Child, wanted: Partial<State>): Promise<void> {
  for (;;) {
    const line = JSON.parse(await reader.nextLine()) as { state?: State };
    if (!line.state) throw new Error(`reader ended before seeing ${JSON.stringify(wanted)}`);
    if (
      Object.entries(wanted).every(
        ([k, v]) => JSON.stringify(line.state![k as keyof State]) === JSON.stringify(v),
      )
    )
      return;
  }
}

async function finish(reader: Child): Promise<Result> {
  reader.process.stdin.write('stop\n');
  for (;;) {
    const line = JSON.parse(await reader.nextLine()) as { queries?: number };
    if (line.queries !== undefined) return line as never;
  }
}

describe('the lake under a reader that keeps one connection open', () => {
  const data = tempDirEachTest('cw-lake-');

  it('sees each sync and sink publish at its next query: never an error, a half-published table or a duplicate', async () => {
    await stageAndPublish(data.dir, '2026-11-19', ['all', 'vip']);
    await publishStream(data.dir, batch(1));
    const reader = spawnHelper('lake-reader-child.mjs', [publishedPath(data.dir)]);
    await seen(reader, { docs: 10, days: [8] });
    await stageAndPublish(data.dir, '2026-11-20', ['all', 'vip'], { runId: 'r2' });
    await seen(reader, { days: [8, 8] });
    for (let n = 2; n <= 6; n += 1) {
      await publishStream(data.dir, batch(n));
      await seen(reader, { docs: 10 * n });
    }
    await stageAndPublish(data.dir, '2026-11-21', ['all', 'vip'], { runId: 'r3' });
    await seen(reader, { docs: 60, announced: 60, days: [8, 8, 8] });
    const result = await finish(reader);
    expect(result.failures).toEqual([]);
    expect(result.inconsistent).toEqual([]);
    expect(result.queries).toBeGreaterThan(10);
    // Not asserted (see lake-reader-child.mjs): queries that saw one stream table's publish
    // before the other's. Logged so a change in how often it happens shows.
    console.info(`lake reader: ${result.mixed} of ${result.queries} queries between two tables' swaps`);
    expect(await reader.exited).toBe(0);
  });

  it('compaction merges a closed day under concurrent reads, exposing no row twice and losing none', async () => {
    await stageAndPublish(data.dir, '2026-11-19', ['all', 'vip']);
    for (let n = 1; n <= 4; n += 1) await publishStream(data.dir, batch(n, '2026-11-20'));
    const lake = `${data.dir}/lake/stream_documents/received_date=2026-11-20`;
    const { readdirSync } = await import('node:fs');
    expect(readdirSync(lake)).toHaveLength(4);
    const reader = spawnHelper('lake-reader-child.mjs', [publishedPath(data.dir)]);
    await seen(reader, { docs: 40 });
    const result = await maintainLake(data.dir, { now: new Date('2026-11-21T00:05:00Z'), retentionMs: 0 });
    expect(result.compacted).toEqual({ stream_documents: 1, stream_deliveries: 1 });
    expect(readdirSync(lake)).toHaveLength(1);
    // Today's partition is left alone; a day merged again only when it gets a new part.
    await publishStream(data.dir, batch(5, '2026-11-21'));
    await seen(reader, { docs: 50 });
    expect((await maintainLake(data.dir, { now: new Date('2026-11-21T12:00:00Z') })).compacted).toEqual({
      stream_documents: 0,
      stream_deliveries: 0,
    });
    const after = await finish(reader);
    expect(after.inconsistent).toEqual([]);
    // The one error a raw reader's query can meet: planned before the swap, it opens a part
    // merged away after it (DuckDB re-opens files by path when it executes; docs/lake.md); the
    // same query run again succeeds. (Listed in the instant of the swap, it could also miss
    // parts: this test's checks cannot see that; read-retry-replaced-file.test.ts counts it.)
    for (const failure of after.failures)
      expect(failure).toMatch(/Cannot open file .*received_date=2026-11-20\/p\./);
    console.info(
      `lake compaction: ${after.failures.length} of ${after.queries} queries planned across the swap`,
    );
  });

  it('DuckDB 1.1 (bundled in older BI drivers) opens the catalog read-only and queries every table and view', async () => {
    await stageAndPublish(data.dir, '2026-11-19', ['all', 'vip']);
    await publishStream(data.dir, batch(1));
    const child = spawnHelper('duckdb-1-1-child.mjs', [publishedPath(data.dir)]);
    const report = JSON.parse(await child.nextLine()) as {
      version: string;
      counts: Record<string, number>;
      errors: string[];
    };
    expect(report.version).toMatch(/^v1\.1\./);
    expect(report.errors).toEqual([]);
    expect(report.counts.post_metrics).toBe(8);
    expect(report.counts.latest_post_metrics).toBe(8);
    expect(report.counts.stream_documents).toBe(10);
    expect(Object.keys(report.counts).length).toBeGreaterThan(35);
    expect(await child.exited).toBe(0);
  });
});
