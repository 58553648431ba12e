/**
 * `npm run bench -- stream-parts [--parts 10,100,1000,2880] [--docs 10] [--merged-only]`: the cost of today's
 * sink parts as a day goes on. Publishes `docs` documents at a time
 * into one received date until it has had each number of publishes of `--parts` (2,880: a day
 * at 30 s), and there measures, on a read-only connection held open since the first publish
 * by a reader process with DuckDB's own allocator (stream-parts-reader.ts),
 * `count(*) from stream_documents` and `stream_documents_daily` (medians), and the median sink
 * publish over the last publishes before it; with intra-day merging (STREAM_MERGE_FANOUT)
 * and without (parts merged only after the day closes, as before), in alternation
 * (`--merged-only`: the merged day alone, whose figures then owe nothing to the unmerged day's
 * thousands of files in the same process). Targets: questions at most 1.25x their time at the
 * first figure (or under 25 ms), a publish at most 1.2x.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Row } from '../src/normalize/rows.js';
import { publishedPath } from '../src/warehouse/duckdb/warehouse-paths.js';
import { STREAM_MERGE_FANOUT } from '../src/warehouse/lake/testing.js';
import { publishStream } from '../src/warehouse/publish-stream.js';
import type { StreamBatch } from '../src/warehouse/types.js';
import { flag, flagValue, report, tempDir } from './bench-processes.js';
import { median } from './history-questions.js';

const DAY = '2026-11-25';
/** Publishes whose median is a checkpoint's publish figure (fewer at the first checkpoint). */
const PUBLISH_WINDOW = 21;

/** Publish `n` of the day: `docs` new documents received at a second of its own, and their delivery. */
function batch(n: number, docs: number): StreamBatch {
  const at = new Date(Date.parse(`${DAY}T00:00:00Z`) + n * 30_000).toISOString();
  const documents: Row[] = [];
  for (let i = 0; i < docs; i += 1) {
    const id = `n${n}-${i}`;
    documents.push({
      hook_id: 'h1',
      search_id: 7 + (i % 3),
      search_type: 'editorial',
      document_id: id,
      published_date: at,
      indexed_date: at,
      url: `https://news.example/${id}`,
      source_name: `Source ${i % 5}`,
      title: `A title of about sixty characters for document ${id}`,
      language: 'en',
      country: 'GB',
      received_at: at,
      valid_schema: true,
      document: JSON.stringify({ id, content: { title: id, body: 'b'.repeat(1200) } }),
    });
  }
  return {
    documents,
    deliveries: [{ delivery_id: n, hook_id: 'h1', received_at: at, documents: docs, bytes: docs * 1500 }],
    hooks: [],
  };
}

interface Checkpoint {
  parts: number;
  files: number;
  countMs: number;
  dailyMs: number;
  publishMs: number;
}

/** A data directory publishing with one fanout, and a reader process holding a connection open on it. */
interface Day {
  readonly fanout: number;
  readonly dir: string;
  readonly publishTimes: number[];
  readonly checkpoints: Checkpoint[];
  reader?: ChildProcess;
}

/** The reader process of `catalog` (stream-parts-reader.ts), with DuckDB's own allocator setting. */
function startReader(catalog: string): ChildProcess {
  const env = { ...process.env };
  delete env.DUCKDB_JE_MALLOC_CONF;
  const child = fileURLToPath(new URL('./stream-parts-reader.js', import.meta.url));
  return fork(child, [catalog], { env, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
}

/** The reader's timings once it sees `rows` documents. */
function askReader(reader: ChildProcess, rows: number): Promise<{ countMs: number; dailyMs: number }> {
  return new Promise((resolve, reject) => {
    reader.once('message', (reply: { countMs: number; dailyMs: number; error?: string }) =>
      reply.error ? reject(new Error(reply.error)) : resolve(reply),
    );
    reader.send({ rows });
  });
}

async function publish(day: Day, n: number, docs: number): Promise<void> {
  const started = performance.now();
  await publishStream(day.dir, batch(n, docs), { mergeFanout: day.fanout });
  day.publishTimes.push(performance.now() - started);
}

/** The figures of `day` after `parts` publishes (its held-open connection must see them all). */
async function checkpoint(day: Day, parts: number, docs: number): Promise<void> {
  const { countMs, dailyMs } = await askReader(day.reader!, parts * docs);
  day.checkpoints.push({
    parts,
    files: readdirSync(join(day.dir, 'lake', 'stream_documents', `received_date=${DAY}`)).length,
    countMs,
    dailyMs,
    publishMs: median(day.publishTimes.slice(-PUBLISH_WINDOW)),
  });
  process.stderr.write(
    `stream-parts: ${JSON.stringify({ fanout: String(day.fanout), ...day.checkpoints.at(-1) })}\n`,
  );
}

/**
 * Two days published in alternation, with intra-day merging (`fanout`) and without
 * (Infinity), measured at each checkpoint one after the other: on a shared machine, both see
 * the same load, so their ratio holds when the absolute times do not.
 */
async function days(
  root: string,
  checkpoints: number[],
  docs: number,
  fanouts: readonly number[],
): Promise<Day[]> {
  const pair: Day[] = fanouts.map((f) => ({
    fanout: f,
    dir: join(root, Number.isFinite(f) ? `merged-${f}` : 'unmerged'),
    publishTimes: [],
    checkpoints: [],
  }));
  try {
    for (const day of pair) {
      mkdirSync(day.dir, { recursive: true });
      await publish(day, 1, docs);
      // Opened once, like a BI tool's pooled connection, in a process of its own.
      day.reader = startReader(publishedPath(day.dir));
    }
    let n = 1;
    for (const parts of checkpoints) {
      for (; n < parts; n += 1) for (const day of pair) await publish(day, n + 1, docs);
      for (const day of pair) await checkpoint(day, parts, docs);
    }
  } finally {
    for (const day of pair) day.reader?.disconnect();
  }
  return pair;
}

const round = (ms: number) => Math.round(ms * 10) / 10;
const ratio = (a: number, b: number) => Math.round((a / b) * 100) / 100;

export async function runStreamPartsBench(args: string[]): Promise<Record<string, number | string>> {
  const checkpoints = (flagValue(args, 'parts') ?? '10,100,1000,2880').split(',').map(Number);
  const docs = flag(args, 'docs', 10);
  const root = tempDir('stream-parts');
  try {
    const fanouts = args.includes('--merged-only')
      ? [STREAM_MERGE_FANOUT]
      : [STREAM_MERGE_FANOUT, Number.POSITIVE_INFINITY];
    const [merged, unmerged = []] = (await days(root, checkpoints, docs, fanouts)).map(
      (day) => day.checkpoints,
    ) as [Checkpoint[], Checkpoint[]?];
    const figures: Record<string, number | string> = { docs_per_publish: docs, fanout: STREAM_MERGE_FANOUT };
    for (const [name, series] of [
      ['merged', merged],
      ['unmerged', unmerged],
    ] as const)
      for (const c of series) {
        figures[`${name}_${c.parts}_files`] = c.files;
        figures[`${name}_${c.parts}_count_ms`] = round(c.countMs);
        figures[`${name}_${c.parts}_daily_ms`] = round(c.dailyMs);
        figures[`${name}_${c.parts}_publish_ms`] = round(c.publishMs);
      }
    const first = merged[0]!;
    const last = merged.at(-1)!;
    Object.assign(figures, {
      merged_count_ratio: ratio(last.countMs, first.countMs),
      merged_daily_ratio: ratio(last.dailyMs, first.dailyMs),
      merged_publish_ratio: ratio(last.publishMs, first.publishMs),
    });
    const plain = unmerged.at(-1);
    if (plain)
      Object.assign(figures, {
        unmerged_count_ratio: ratio(plain.countMs, unmerged[0]!.countMs),
        unmerged_publish_ratio: ratio(plain.publishMs, unmerged[0]!.publishMs),
      });
    report(
      `stream-parts: today's partition after ${checkpoints.join(', ')} publishes of ${docs} documents (targets: questions <= 1.25x the first or < 25 ms, publish <= 1.2x)`,
      figures,
    );
    return figures;
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
