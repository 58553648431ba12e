/** The history benchmark's publishes: the first day, and the one-day sync and sink publishes it measures. */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Row } from '../src/normalize/rows.js';
import { publishStream } from '../src/warehouse/publish-stream.js';
import { publishSync } from '../src/warehouse/publish-sync.js';
import type { StreamBatch, SyncRunRecord } from '../src/warehouse/types.js';
import { median } from './history-questions.js';
import { benchSyncRun, writeBytes } from './lake-history.js';

/** The history's first day: published for real, then cloned to the others. */
export const FIRST = '2026-01-01';
/** Documents of each measured sink publish. */
const SINK_DOCS = 1_000;
/** Sink publishes measured at each history length (the median is reported). */
const SINK_PUBLISHES = 9;

function run(date: string): SyncRunRecord {
  return benchSyncRun(date, `bench-${date}-${Math.random()}`);
}

/** `count` pushed documents of about 1.5 KB, received on `day`, in one delivery. */
export function documents(prefix: string, count: number, day: string, deliveryId: number): StreamBatch {
  const rows: Row[] = [];
  for (let i = 0; i < count; i += 1) {
    const id = `${prefix}-${i}`;
    rows.push({
      hook_id: 'h1',
      search_id: 7,
      search_type: 'editorial',
      document_id: id,
      published_date: `${day}T08:00:00Z`,
      indexed_date: `${day}T08:30:00Z`,
      url: `https://news.example/${id}`,
      source_name: 'Daily News',
      title: `A title of about sixty characters for document ${id}`,
      language: 'en',
      country: 'GB',
      received_at: `${day}T09:00:00Z`,
      valid_schema: true,
      document: JSON.stringify({ id, content: { title: id, body: 'b'.repeat(1200) } }),
    });
  }
  return {
    documents: rows,
    deliveries: [
      {
        delivery_id: deliveryId,
        hook_id: 'h1',
        received_at: `${day}T09:00:00Z`,
        documents: count,
        bytes: count * 2000,
      },
    ],
    hooks: [],
  };
}

async function measure<T>(work: () => Promise<T>): Promise<{ ms: number; bytes: number }> {
  const bytes = writeBytes();
  const started = performance.now();
  await work();
  return { ms: performance.now() - started, bytes: writeBytes() - bytes };
}

/** A sync publish of the day staged in `staged` (its snapshot date `date`). */
export function publishDay(dir: string, staged: string, date: string): Promise<unknown> {
  return publishSync(dir, { stagingPath: staged, snapshotDate: date, segments: ['all'], run: run(date) });
}

/** Publishes the first day (sync + 20,000 sink documents) into a new data directory `root`/`name`. */
export async function firstDay(root: string, name: string, staged: string): Promise<string> {
  const dir = join(root, name);
  mkdirSync(dir, { recursive: true });
  await publishDay(dir, staged, FIRST);
  for (let i = 0; i < 10; i += 1) await publishStream(dir, documents(`first-${i}`, 2_000, FIRST, i + 1));
  return dir;
}

export interface PublishCosts {
  syncMs: number;
  syncBytes: number;
  sinkMs: number;
  sinkBytes: number;
}

/** A one-day sync publish of `date` and sink publishes of 1,000 documents, at the lake's history. */
export async function publishCosts(
  dir: string,
  staged: string,
  date: string,
  tag: string,
): Promise<PublishCosts> {
  const sync = await measure(() => publishDay(dir, staged, date));
  const sinks: { ms: number; bytes: number }[] = [];
  for (let i = 0; i < SINK_PUBLISHES; i += 1)
    sinks.push(await measure(() => publishStream(dir, documents(`${tag}-${i}`, SINK_DOCS, date, 1_000 + i))));
  return {
    syncMs: sync.ms,
    syncBytes: sync.bytes,
    sinkMs: median(sinks.map((s) => s.ms)),
    sinkBytes: median(sinks.map((s) => s.bytes)),
  };
}
