/** Pieces shared by the sink and freshness benchmarks: child processes, a hook, signed requests. */

import { type ChildProcess, spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { hookPath, newPathToken } from '../src/sink/hook-path.js';
import { hooks } from '../src/state/schema.js';
import { openStateDb } from '../src/state/state-db.js';
import { BUILT_CLI, cliNodeFlags } from '../src/util/built-cli.js';

export interface BenchHook {
  readonly hookId: string;
  readonly secret: string;
  readonly path: string;
}

export interface ChildServer {
  readonly url: string;
  readonly pid: number;
  /** Resolves with the exit code when the child exits (by itself or after stop()). */
  readonly exited: Promise<number | null>;
  /** SIGTERM, then the exit code. */
  stop(): Promise<number | null>;
}

/** Registers one hook in <dataDir>/state.sqlite, as `hooks create` does. */
export function registerBenchHook(dataDir: string): BenchHook {
  const token = newPathToken();
  const hook = { hookId: `bench-${token.slice(0, 8)}`, secret: newPathToken(), path: hookPath(token) };
  const state = openStateDb(dataDir);
  try {
    state.db
      .insert(hooks)
      .values({
        hookId: hook.hookId,
        searchId: 1,
        searchType: 'social',
        targetUrl: `https://sink.example${hook.path}`,
        pathToken: token,
        secret: hook.secret,
        status: 'ACTIVE',
        createdAt: new Date().toISOString(),
      })
      .run();
  } finally {
    state.close();
  }
  return hook;
}

/** One social document of about `bytes` bytes of JSON, with id `id`. */
export function benchDocument(id: string, bytes = 2_000): Record<string, unknown> {
  const doc = {
    id,
    published_date: '2026-11-20T08:00:00Z',
    indexed_date: '2026-11-20T08:05:00Z',
    url: `https://social.example/p/${id}`,
    external_id: `ext-${id}`,
    source: { id: 'instagram', name: 'Instagram', information_type: 'social' },
    content: { title: `Post ${id}`, opening_text: '' },
    language: 'en',
    country: 'GB',
    author: { handle: '@someone', name: 'Some One' },
    metrics: { likes: 10, comments: 2, shares: 1 },
  };
  const pad = Math.max(0, bytes - JSON.stringify(doc).length);
  doc.content.opening_text = 'lorem ipsum '.repeat(Math.ceil(pad / 12)).slice(0, pad);
  return doc;
}

/** A signed delivery of the given documents: body and the headers the API sends. */
export function signedDelivery(
  hook: BenchHook,
  documents: unknown[],
): { body: string; headers: Record<string, string> } {
  const body = JSON.stringify({
    request: { hook_id: hook.hookId, search_id: 1, company_id: 'c1' },
    documents,
  });
  return {
    body,
    headers: {
      'content-type': 'application/json',
      'x-hub-signature': `sha1=${createHmac('sha1', hook.secret).update(body).digest('hex')}`,
      'x-hub-signature-256': `sha256=${createHmac('sha256', hook.secret).update(body).digest('hex')}`,
    },
  };
}

/** `count` pre-signed one-document deliveries (autocannon cycles through them). */
export function benchRequests(hook: BenchHook, count: number, prefix: string): autocannon.Request[] {
  return Array.from({ length: count }, (_, i) => {
    const { body, headers } = signedDelivery(hook, [benchDocument(`${prefix}-${i}`)]);
    return { method: 'POST', path: hook.path, headers, body };
  });
}

export interface CannonFigures {
  readonly acksPerSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly non2xx: number;
  readonly errors: number;
  /**
   * Share (0..1) of the machine's CPU time during the run in which a virtual CPU was ready
   * to run but the hypervisor did not run it (steal); NaN where /proc/stat is missing. On
   * these VMs it is small for a busy loop (2%) but grows with the wake-ups of loopback
   * ping-pong and fsync (15-31% seen): figures are only comparable at similar steal.
   */
  readonly steal: number;
}

/** Runs autocannon against `url` and reduces its result to the figures we report. */
export async function cannon(
  url: string,
  requests: autocannon.Request[],
  options: { connections: number; durationSeconds: number; overallRate?: number },
): Promise<CannonFigures> {
  const before = cpuTimes();
  const result = await autocannon({
    url,
    requests,
    connections: options.connections,
    duration: options.durationSeconds,
    ...(options.overallRate ? { overallRate: options.overallRate } : {}),
  });
  return {
    acksPerSecond: result['2xx'] / result.duration,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
    steal: stealShare(before, cpuTimes()),
  };
}

/** The machine's CPU time by state, the first line of /proc/stat (Linux); undefined elsewhere. */
function cpuTimes(): number[] | undefined {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0] as string;
    return line.trim().split(/\s+/).slice(1).map(Number);
  } catch {
    return undefined;
  }
}

/** steal / (user + nice + system + idle + iowait + irq + softirq + steal) between two readings. */
function stealShare(before: number[] | undefined, after: number[] | undefined): number {
  if (!before || !after || after.length < 8) return Number.NaN;
  const spent = after.slice(0, 8).map((value, i) => value - (before[i] ?? 0));
  const total = spent.reduce((sum, value) => sum + value, 0);
  return total > 0 ? (spent[7] as number) / total : Number.NaN;
}

/** `campaign-warehouse sink` (the built CLI, or another build's `cli`) in a child process, on a free port. */
export function startSinkChild(dataDir: string, args: string[] = [], cli = BUILT_CLI): Promise<ChildServer> {
  const child = spawn(
    process.execPath,
    [...cliNodeFlags(), cli, 'sink', '--port', '0', '--data-dir', dataDir, ...args],
    {
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, CW_LOG_LEVEL: 'info' },
    },
  );
  return waitForUrl(child, 'stderr', (line) => /"url":"(http:[^"]+)"/.exec(line)?.[1]);
}

/**
 * The bare node:http server (sink-bare-server.js) in a child process; given `checkSecret`, it
 * also makes the sink's checks (signatures with that secret, JSON, `documents`) and stores nothing.
 */
export function startBareChild(checkSecret?: string): Promise<ChildServer> {
  const script = fileURLToPath(new URL('./sink-bare-server.js', import.meta.url));
  const env = { ...process.env };
  delete env.CW_BENCH_CHECK_SECRET;
  if (checkSecret !== undefined) env.CW_BENCH_CHECK_SECRET = checkSecret;
  const child = spawn(process.execPath, [script], { stdio: ['ignore', 'pipe', 'inherit'], env });
  return waitForUrl(child, 'stdout', (line) => {
    const port = (JSON.parse(line) as { port?: number }).port;
    return port ? `http://127.0.0.1:${port}` : undefined;
  });
}

function waitForUrl(
  child: ChildProcess,
  stream: 'stdout' | 'stderr',
  parse: (line: string) => string | undefined,
): Promise<ChildServer> {
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let output = '';
  return new Promise((resolve, reject) => {
    const input = child[stream];
    if (!input) throw new Error('child has no output stream');
    createInterface({ input }).on('line', (line) => {
      output += `${line}\n`;
      const url = parse(line);
      if (url)
        resolve({
          url,
          pid: child.pid as number,
          exited,
          stop: () => {
            child.kill('SIGTERM');
            return exited;
          },
        });
    });
    exited.then((code) => reject(new Error(`child exited ${code} before listening:\n${output}`)));
  });
}

/** A sample's value in Prometheus text (NaN when absent). */
export function metricValue(text: string, name: string): number {
  return Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1] ?? Number.NaN);
}

/**
 * Quantile `q` of a Prometheus histogram, as the upper bound of the bucket it falls in, in ms
 * ("at most this"): the sink's own view of a latency, without the load generator's share.
 */
export function histogramQuantileMs(text: string, name: string, q: number): number {
  const buckets = [...text.matchAll(new RegExp(`^${name}_bucket\\{le="([^"]+)"\\} (\\S+)$`, 'gm'))].map(
    ([, le, count]) => ({ le: Number(le), count: Number(count) }),
  );
  const total = buckets.at(-1)?.count ?? 0;
  const bucket = buckets.find((b) => b.count >= q * total);
  return bucket && total > 0 ? bucket.le * 1000 : Number.NaN;
}

/** The sink's /metrics text. */
export async function sinkMetrics(url: string): Promise<string> {
  return (await fetch(`${url}/metrics`)).text();
}
