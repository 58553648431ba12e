/**
 * `npm run bench -- hostile [--phase a|b] [--seconds S] [--bodies N] [--body-mib M] [--trickle N] [--cli PATH]`:
 * the sink (built CLI, default options, a child process) under hostile clients on loopback,
 * while a genuine sender delivers one signed delivery every 50 ms throughout.
 *
 * (a) `--bodies` (1,000) senders each POST a forged 10 MiB body (a well-formed, wrong
 *     signature) to a valid hook path, again 200 ms after each answer, for `--seconds`; each
 *     stops sending once answered or closed. Targets: the sink's peak RSS < 512 MB, it stays
 *     up, no forged body acknowledged, >= 90% of genuine deliveries acknowledged and the rest
 *     503, and every acknowledged one in the inbox and the warehouse afterwards.
 * (b) `--trickle` (3,000) connections each send one header line every 5 s, never finishing
 *     their head; one the sink closes is opened again, for `--seconds`. Targets: genuine p99
 *     < 200 ms, and the slow connections closed by the headers timeout (408).
 *
 * The attacker runs in a worker thread (hostile-attacker.ts), so its sockets never delay the
 * genuine sender's event loop; the sink's peak RSS is its VmHWM from /proc. `--cli` runs
 * another build's CLI (e.g. main's, for the figures before the budget; it then has none of
 * the new defaults). Node raises its own open-file limit to the hard limit at start; the
 * 3,000 connections need a hard limit (`ulimit -Hn`) above ~6,100 (both ends are on this machine).
 * CW_BENCH_DEBUG=1 also prints each genuine delivery slower than 200 ms (when it was sent,
 * relative to the attack's start) and the bench's own event-loop lag: to tell the sink's
 * stalls from the machine's. Figures and their dates: bench/RESULTS.md.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { Worker } from 'node:worker_threads';
import { Agent, fetch } from 'undici';
import { openInboxDb } from '../src/state/inbox-db.js';
import { queryReadOnly } from '../src/warehouse/read/query-read-only.js';
import { flag, flagValue } from './bench-processes.js';
import type { AttackPlan, AttackResult } from './hostile-attacker.js';
import {
  type BenchHook,
  benchDocument,
  type ChildServer,
  histogramQuantileMs,
  metricValue,
  registerBenchHook,
  signedDelivery,
  sinkMetrics,
  startSinkChild,
} from './sink-harness.js';

/** The genuine sender: one delivery every 50 ms, a steady hook's pace the attack must not disturb. */
const GENUINE_EVERY_MS = 50;
/** A genuine delivery not answered in 10 s counts as failed (the API's own timeout is not documented). */
const GENUINE_TIMEOUT_MS = 10_000;
/** Long enough for several rounds of refusals and, in (b), for the headers timeout to fire twice. */
const DEFAULT_SECONDS = 25;
const DEFAULT_BODIES = 1_000;
const DEFAULT_BODY_MIB = 10;
const DEFAULT_TRICKLE = 3_000;
/** The genuine sender runs alone this long first (the sink's loader thread and JIT starting), not measured. */
const WARMUP_MS = 3_000;
/** (a) A hostile sender ignores Retry-After: it tries again a moment after each answer. */
const BODY_PAUSE_MS = 200;
/** (b) One header line per connection every 5 s. */
const TRICKLE_EVERY_MS = 5_000;

export const TARGET_PEAK_RSS_MB = 512;
export const TARGET_GENUINE_ACK_SHARE = 0.9;
export const TARGET_GENUINE_P99_MS = 200;

interface Genuine {
  readonly id: string;
  /** performance.now() when sent. */
  readonly at: number;
  status: number;
  ms: number;
  deliveryId?: number;
}

function quantile(sorted: number[], q: number): number {
  return sorted.length === 0
    ? Number.NaN
    : (sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] as number);
}

/** The sink's peak RSS so far (VmHWM), MB; NaN where /proc is missing. */
function peakRssMb(pid: number): number {
  try {
    const kb = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb ? Math.round(Number(kb) / 1024) : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

/** One signed delivery every 50 ms until stop() (each on its own, never waiting for the previous one). */
function genuineSender(url: string, hook: BenchHook, prefix: string) {
  const sent: Genuine[] = [];
  const inFlight = new Set<Promise<void>>();
  const dispatcher = new Agent({ connections: 16 });
  const deliver = async (g: Genuine): Promise<void> => {
    const { body, headers } = signedDelivery(hook, [benchDocument(g.id)]);
    const started = performance.now();
    try {
      const response = await fetch(`${url}${hook.path}`, {
        method: 'POST',
        headers,
        body,
        signal: AbortSignal.timeout(GENUINE_TIMEOUT_MS),
        dispatcher,
      });
      const answer = (await response.json()) as { delivery_id?: number };
      g.status = response.status;
      if (response.status === 200) g.deliveryId = answer.delivery_id;
    } catch {
      g.status = 0;
    }
    g.ms = performance.now() - started;
  };
  const timer = setInterval(() => {
    const g: Genuine = { id: `${prefix}-${sent.length}`, at: performance.now(), status: -1, ms: Number.NaN };
    sent.push(g);
    const p = deliver(g).finally(() => inFlight.delete(p));
    inFlight.add(p);
  }, GENUINE_EVERY_MS);
  return {
    sent,
    stop: async () => {
      clearInterval(timer);
      await Promise.all(inFlight);
      await dispatcher.close();
    },
  };
}

function attack(plan: AttackPlan): Promise<AttackResult> {
  const worker = new Worker(new URL('./hostile-attacker.js', import.meta.url), { workerData: plan });
  return new Promise((resolve, reject) => {
    worker.once('message', (result: AttackResult) => resolve(result));
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`attacker exited ${code} without a result`)));
  });
}

/** Acknowledged genuine deliveries missing from the inbox, and their documents missing from the warehouse. */
async function lostAfterStop(
  dataDir: string,
  acked: Genuine[],
): Promise<{ inbox: number; warehouse: number }> {
  const inbox = openInboxDb(dataDir);
  let missingInbox = 0;
  try {
    const has = inbox.sqlite.prepare('select 1 from deliveries where delivery_id = ?');
    for (const g of acked) if (!has.get(g.deliveryId)) missingInbox += 1;
  } finally {
    inbox.close();
  }
  const ids = acked.map((g) => g.id);
  let seen = 0;
  for (let i = 0; i < ids.length; i += 500) {
    const batch = ids.slice(i, i + 500);
    const result = await queryReadOnly(
      dataDir,
      `select count(distinct document_id) from stream_documents where document_id in (${batch.map(() => '?').join(', ')})`,
      batch,
    );
    seen += Number(result.rows[0]?.[0] ?? 0);
  }
  return { inbox: missingInbox, warehouse: ids.length - seen };
}

interface Phase {
  readonly sink: ChildServer;
  /** Every genuine delivery (all are checked for loss); `during` those sent while the attack ran. */
  readonly genuine: Genuine[];
  readonly during: Genuine[];
  readonly attack: AttackResult;
  readonly peakRssMb: number;
  readonly sinkUp: boolean;
  readonly metrics: string;
  /** CPU seconds the sink spent during the attack (process_cpu_seconds_total). */
  readonly sinkCpuSeconds: number;
  /** The machine's 1-minute load average when the attack ended (other work on it included). */
  readonly loadAverage: number;
}

/** Starts a sink, runs the genuine sender and `plan` together, then reads the sink's figures (it still runs). */
async function runPhase(
  dataDir: string,
  hook: BenchHook,
  plan: Omit<AttackPlan, 'url' | 'path'>,
  cli?: string,
): Promise<Phase> {
  const sink = await startSinkChild(dataDir, [], cli);
  let exited = false;
  void sink.exited.then(() => {
    exited = true;
  });
  const genuine = genuineSender(sink.url, hook, `${plan.mode}-${Date.now()}`);
  // Warm-up: the sink's loader thread and JIT start with the first deliveries; not measured.
  await sleep(WARMUP_MS);
  // A scrape resets the sink's event-loop lag histogram: the one after the attack covers it alone.
  const cpuBefore = metricValue(await sinkMetrics(sink.url), 'process_cpu_seconds_total');
  const started = performance.now();
  const lag = monitorEventLoopDelay({ resolution: 10 });
  lag.enable();
  const result = await attack({ ...plan, url: sink.url, path: hook.path });
  lag.disable();
  if (process.env.CW_BENCH_DEBUG)
    process.stdout.write(`bench main loop lag max ${Math.round(lag.max / 1e6)} ms\n`);
  const ended = performance.now();
  const loadAverage = Number(loadavg()[0]?.toFixed(1));
  await sleep(500);
  await genuine.stop();
  const peak = peakRssMb(sink.pid);
  let healthy = false;
  let metrics = '';
  try {
    healthy = (await fetch(`${sink.url}/healthz`)).status === 200;
    metrics = await sinkMetrics(sink.url);
  } catch {
    healthy = false;
  }
  if (process.env.CW_BENCH_DEBUG)
    process.stdout.write(
      `slow genuine (s since attack start: ms): ${genuine.sent
        .filter((g) => g.ms > 200)
        .map((g) => `${((g.at - started) / 1000).toFixed(1)}:${Math.round(g.ms)}`)
        .join(' ')}\n`,
    );
  return {
    sink,
    genuine: genuine.sent,
    during: genuine.sent.filter((g) => g.at >= started && g.at <= ended),
    attack: result,
    peakRssMb: peak,
    sinkUp: healthy && !exited,
    sinkCpuSeconds: Number((metricValue(metrics, 'process_cpu_seconds_total') - cpuBefore).toFixed(1)),
    loadAverage,
    metrics,
  };
}

/** The genuine deliveries sent during the attack: shares and latencies; `acked`: every acknowledged one, for the loss check. */
function genuineFigures(phase: Phase) {
  const genuine = phase.during;
  const acked = phase.genuine.filter((g) => g.status === 200);
  const ackedDuring = genuine.filter((g) => g.status === 200);
  const refused = genuine.filter((g) => g.status === 503).length;
  const latencies = ackedDuring.map((g) => g.ms).sort((a, b) => a - b);
  return {
    acked,
    sent: genuine.length,
    ackShare: ackedDuring.length / Math.max(1, genuine.length),
    refused503: refused,
    other: genuine.length - ackedDuring.length - refused,
    p50: Math.round(quantile(latencies, 0.5)),
    p99: Math.round(quantile(latencies, 0.99)),
    max: Math.round(latencies.at(-1) ?? Number.NaN),
  };
}

export async function runHostileBench(args: string[]): Promise<Record<string, number | boolean>> {
  const phases = flagValue(args, 'phase') ?? 'ab';
  const seconds = flag(args, 'seconds', DEFAULT_SECONDS);
  const bodies = flag(args, 'bodies', DEFAULT_BODIES);
  const bodyMib = flag(args, 'body-mib', DEFAULT_BODY_MIB);
  const trickleCount = flag(args, 'trickle', DEFAULT_TRICKLE);
  const cli = flagValue(args, 'cli');
  const figures: Record<string, number | boolean> = {};
  let met = true;
  const dataDir = mkdtempSync(join(tmpdir(), 'cw-bench-hostile-'));
  try {
    const hook = registerBenchHook(dataDir);
    if (phases.includes('a')) {
      process.stdout.write(
        `(a) ${bodies} senders of forged ${bodyMib} MiB bodies for ${seconds} s, genuine every ${GENUINE_EVERY_MS} ms\n`,
      );
      const phase = await runPhase(
        dataDir,
        hook,
        {
          mode: 'bodies',
          slots: bodies,
          durationMs: seconds * 1000,
          bodyBytes: bodyMib * 1024 * 1024,
          pauseMs: BODY_PAUSE_MS,
          trickleEveryMs: 0,
        },
        cli,
      );
      const code = await phase.sink.stop();
      const g = genuineFigures(phase);
      const lost = await lostAfterStop(dataDir, g.acked);
      const statuses = phase.attack.statuses;
      const badAcked = Object.entries(statuses)
        .filter(([s]) => s.startsWith('2'))
        .reduce((n, [, c]) => n + c, 0);
      const a = {
        a_peak_rss_mb: phase.peakRssMb,
        a_sink_up: phase.sinkUp,
        a_sink_exit_code: code ?? -1,
        a_bad_attempts: phase.attack.attempts,
        a_bad_acknowledged: badAcked,
        a_bad_503: statuses['503'] ?? 0,
        a_bad_401: statuses['401'] ?? 0,
        a_bad_closed_unanswered: statuses['0'] ?? 0,
        a_bad_gib_sent: Number((phase.attack.sentBytes / 1024 ** 3).toFixed(2)),
        a_sink_cpu_s: phase.sinkCpuSeconds,
        a_load_average: phase.loadAverage,
        a_sink_event_loop_lag_max_ms: Math.round(
          metricValue(phase.metrics, 'nodejs_eventloop_lag_max_seconds') * 1000,
        ),
        a_sink_over_budget: metricValue(phase.metrics, 'sink_deliveries_total\\{outcome="over_budget"\\}'),
        a_genuine_sent: g.sent,
        a_genuine_acked_pct: Number((g.ackShare * 100).toFixed(1)),
        a_genuine_503: g.refused503,
        a_genuine_other: g.other,
        a_genuine_p50_ms: g.p50,
        a_genuine_p99_ms: g.p99,
        a_lost_from_inbox: lost.inbox,
        a_lost_from_warehouse: lost.warehouse,
      };
      const aMet =
        a.a_peak_rss_mb < TARGET_PEAK_RSS_MB &&
        a.a_sink_up &&
        badAcked === 0 &&
        g.ackShare >= TARGET_GENUINE_ACK_SHARE &&
        g.other === 0 &&
        lost.inbox === 0 &&
        lost.warehouse === 0;
      Object.assign(figures, { a_target_met: aMet }, a);
      met &&= aMet;
      report('(a) forged large bodies', a);
    }
    if (phases.includes('b')) {
      process.stdout.write(
        `(b) ${trickleCount} connections trickling a header every ${TRICKLE_EVERY_MS / 1000} s for ${seconds} s, genuine every ${GENUINE_EVERY_MS} ms\n`,
      );
      const phase = await runPhase(
        dataDir,
        hook,
        {
          mode: 'trickle',
          slots: trickleCount,
          durationMs: seconds * 1000,
          bodyBytes: 0,
          pauseMs: 0,
          trickleEveryMs: TRICKLE_EVERY_MS,
        },
        cli,
      );
      await phase.sink.stop();
      const g = genuineFigures(phase);
      const closed = phase.attack.closedAfterMs;
      const b = {
        b_genuine_sent: g.sent,
        b_genuine_acked_pct: Number((g.ackShare * 100).toFixed(1)),
        b_genuine_p50_ms: g.p50,
        b_genuine_p99_ms: g.p99,
        b_genuine_max_ms: g.max,
        b_slow_connections_opened: phase.attack.attempts,
        b_slow_closed_408: phase.attack.statuses['408'] ?? 0,
        b_slow_closed_other: closed.length - (phase.attack.statuses['408'] ?? 0),
        b_slow_open_at_end: phase.attack.openAtEnd,
        b_slow_closed_after_s_median: Number((quantile(closed, 0.5) / 1000).toFixed(1)),
        b_slow_closed_after_s_max: Number(((closed.at(-1) ?? Number.NaN) / 1000).toFixed(1)),
        b_sink_headers_timeouts: metricValue(
          phase.metrics,
          'sink_connection_timeouts_total\\{phase="headers"\\}',
        ),
        b_sink_connections_refused: metricValue(phase.metrics, 'sink_connections_refused_total'),
        b_sink_answer_p99_ms_at_most: histogramQuantileMs(phase.metrics, 'sink_answer_seconds', 0.99),
        b_sink_cpu_s: phase.sinkCpuSeconds,
        b_load_average: phase.loadAverage,
        b_sink_event_loop_lag_max_ms: Math.round(
          metricValue(phase.metrics, 'nodejs_eventloop_lag_max_seconds') * 1000,
        ),
        b_peak_rss_mb: phase.peakRssMb,
        b_sink_up: phase.sinkUp,
      };
      const bMet =
        g.p99 < TARGET_GENUINE_P99_MS &&
        g.other === 0 &&
        b.b_sink_up &&
        b.b_slow_closed_408 > 0 &&
        b.b_slow_closed_other === 0;
      Object.assign(figures, { b_target_met: bMet }, b);
      met &&= bMet;
      report('(b) connections trickling headers', b);
    }
    const all = { target_met: met, ...figures, seconds, bodies, body_mib: bodyMib, trickle: trickleCount };
    process.stdout.write(`${JSON.stringify(all)}\n`);
    return all;
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

function report(title: string, figures: Record<string, number | boolean>): void {
  process.stdout.write(`${title}\n`);
  for (const [key, value] of Object.entries(figures)) process.stdout.write(`  ${key.padEnd(30)} ${value}\n`);
}
