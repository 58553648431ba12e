/**
 * `npm run bench -- freshness [--interval S] [--samples N] [--load-seconds S] [--load-rate R]`:
 * time from a delivery's acknowledgement (the 200 the sender sees) to its document being
 * visible in the published warehouse file, read as an analyst would (a fresh READ_ONLY open).
 * Idle: N probes one after another at the publish interval (default 30 s, the product default).
 * Under load: autocannon keeps R signed deliveries/s flowing while a probe is sent every few
 * seconds. The sink runs in a child process (the built CLI).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import Table from 'cli-table3';
import { publishedPath } from '../src/warehouse/duckdb/warehouse-paths.js';
import { queryReadOnly } from '../src/warehouse/read/query-read-only.js';
import { flag } from './bench-processes.js';
import {
  type BenchHook,
  benchDocument,
  benchRequests,
  cannon,
  histogramQuantileMs,
  registerBenchHook,
  signedDelivery,
  sinkMetrics,
  startSinkChild,
} from './sink-harness.js';

/** The product's default publish interval. */
const DEFAULT_INTERVAL_SECONDS = 30;
/** Idle probes: each waits up to one interval, so a few keep the run around 1.5 minutes. */
const DEFAULT_SAMPLES = 3;
/** Longer than two intervals, so the load spans several publishes. */
const DEFAULT_LOAD_SECONDS = 70;
/** A sustained rate far above real push traffic (the simulator sends a few per second). */
const DEFAULT_LOAD_RATE = 1_000;
/** One probe every few seconds under load: ~a dozen samples spread over the publish cycle. */
const PROBE_EVERY_MS = 5_000;
/** How often the published file is re-opened to look for probes. */
const POLL_MS = 100;

async function sendProbe(url: string, hook: BenchHook, id: string): Promise<number> {
  const { body, headers } = signedDelivery(hook, [benchDocument(id)]);
  const response = await fetch(`${url}${hook.path}`, { method: 'POST', headers, body });
  await response.arrayBuffer();
  if (response.status !== 200) throw new Error(`probe ${id} answered ${response.status}`);
  return performance.now();
}

/**
 * Polls the published file while probes are being sent (`acks` grows) until `sending` is done
 * and every probe is visible; returns ms from acknowledgement to visibility per probe.
 */
async function watchProbes(
  dataDir: string,
  acks: Map<string, number>,
  sending: Promise<unknown>,
  timeoutMs: number,
): Promise<number[]> {
  let sent = false;
  void sending.finally(() => {
    sent = true;
  });
  const seen = new Map<string, number>();
  let deadline = Number.POSITIVE_INFINITY;
  while ((!sent || seen.size < acks.size) && performance.now() < deadline) {
    if (sent && deadline === Number.POSITIVE_INFINITY) deadline = performance.now() + timeoutMs;
    await sleep(POLL_MS);
    const missing = [...acks.keys()].filter((id) => !seen.has(id));
    if (missing.length === 0) continue;
    try {
      const placeholders = missing.map(() => '?').join(', ');
      const result = await queryReadOnly(
        dataDir,
        `select document_id from stream_documents where document_id in (${placeholders})`,
        missing,
      );
      const now = performance.now();
      for (const [id] of result.rows) seen.set(String(id), now);
    } catch {
      // No published file yet.
    }
  }
  return [...acks].map(([id, ackAt]) => (seen.get(id) ?? Number.NaN) - ackAt);
}

function summarize(ms: number[]): { median: number; max: number } {
  const sorted = [...ms].sort((a, b) => a - b);
  return { median: sorted[Math.floor(sorted.length / 2)] ?? Number.NaN, max: sorted.at(-1) ?? Number.NaN };
}

export async function runFreshnessBench(args: string[]): Promise<Record<string, number>> {
  const intervalSeconds = flag(args, 'interval', DEFAULT_INTERVAL_SECONDS);
  const samples = flag(args, 'samples', DEFAULT_SAMPLES);
  const loadSeconds = flag(args, 'load-seconds', DEFAULT_LOAD_SECONDS);
  const loadRate = flag(args, 'load-rate', DEFAULT_LOAD_RATE);
  const dataDir = mkdtempSync(join(tmpdir(), 'cw-bench-fresh-'));
  const timeoutMs = (intervalSeconds + 60) * 1000;
  try {
    const hook = registerBenchHook(dataDir);
    const sink = await startSinkChild(dataDir, ['--publish-interval', String(intervalSeconds)]);
    try {
      const idle: number[] = [];
      for (let i = 0; i < samples; i++) {
        const acks = new Map<string, number>();
        const probe = sendProbe(sink.url, hook, `idle-${i}`).then((at) => acks.set(`idle-${i}`, at));
        const [ms] = await watchProbes(dataDir, acks, probe, timeoutMs);
        idle.push(ms as number);
        process.stdout.write(`idle probe ${i + 1}/${samples}: ${((ms as number) / 1000).toFixed(2)} s\n`);
      }

      const acks = new Map<string, number>();
      const load = cannon(sink.url, benchRequests(hook, 512, 'load'), {
        connections: 32,
        durationSeconds: loadSeconds,
        overallRate: loadRate,
      });
      const probing = (async () => {
        const probesUntil = performance.now() + (loadSeconds - 5) * 1000;
        for (let i = 0; performance.now() < probesUntil; i++) {
          // Probe ids of their own: the load's documents are load-0 .. load-511.
          acks.set(`probe-${i}`, await sendProbe(sink.url, hook, `probe-${i}`));
          await sleep(PROBE_EVERY_MS);
        }
      })();
      const [loaded, loadFigures] = await Promise.all([watchProbes(dataDir, acks, probing, timeoutMs), load]);
      const idleStats = summarize(idle);
      const loadStats = summarize(loaded);
      const figures = {
        interval_s: intervalSeconds,
        idle_samples: idle.length,
        idle_median_s: Number((idleStats.median / 1000).toFixed(2)),
        idle_max_s: Number((idleStats.max / 1000).toFixed(2)),
        load_rate_per_s: Math.round(loadFigures.acksPerSecond),
        load_samples: loaded.length,
        load_median_s: Number((loadStats.median / 1000).toFixed(2)),
        load_max_s: Number((loadStats.max / 1000).toFixed(2)),
        load_p99_ms: loadFigures.p99Ms,
        // The sink's own view (idle probes included): the load generator shares these 2 cores,
        // and during a publish its own wait for CPU dominates the p99 it measures.
        sink_answer_p99_ms_at_most: histogramQuantileMs(
          await sinkMetrics(sink.url),
          'sink_answer_seconds',
          0.99,
        ),
      };
      const table = new Table({
        head: ['phase', 'samples', 'median s', 'max s'],
        style: { head: [], border: [] },
      });
      table.push(
        [
          `idle, interval ${intervalSeconds} s`,
          figures.idle_samples,
          figures.idle_median_s,
          figures.idle_max_s,
        ],
        [
          `under ${figures.load_rate_per_s} deliveries/s`,
          figures.load_samples,
          figures.load_median_s,
          figures.load_max_s,
        ],
      );
      process.stdout.write(`${table.toString()}\n`);
      process.stdout.write(
        `published file: ${publishedPath(dataDir)}; target: visible within the interval\n`,
      );
      process.stdout.write(`${JSON.stringify(figures)}\n`);
      return figures;
    } finally {
      await sink.stop();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}
