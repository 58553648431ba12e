/**
 * The client's pacing on a busy machine: its core shared with busy processes and a busy
 * worker thread of its own process, its event loop stalled between pages, against the
 * simulator's strict burst-1 bucket in a process of its own (on the other core and at
 * real-time priority when allowed, so that its own stalls do not bunch what it receives).
 * The spacing must hold between the requests as they leave (src/api/throttle/README.md,
 * "Pacing starts"). Nothing is asserted about speed: the load may slow the sync down.
 */
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Worker } from 'node:worker_threads';
import { Agent, request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { startSimulatorProcess } from '../../bench/bench-processes.js';
import {
  busyProcesses,
  busyThread,
  CLIENT_CORE,
  onCore,
  pinThisProcess,
  realTime,
  SERVER_CORE,
} from '../../bench/busy-cores.js';
import { createApiClient } from '../../src/api/create-api-client.js';
import { reportingSent } from '../../src/api/throttle/throttle.js';

const cleanup: (() => unknown)[] = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn();
});

/** The simulator's bucket, and the client's rate just below it (the sync bench's `strict`). */
const BUCKET_RPS = 25;
const RPS = 20;
const REQUESTS = 100;
/** Longest any busy loop may run should this process die without stopping it. */
const MAX_BUSY_MS = 5 * 60_000;

/** Blocks the event loop for up to `maxMs` (a page parsed, rows staged). */
function stall(maxMs: number): void {
  const end = performance.now() + Math.random() * maxMs;
  while (performance.now() < end) {}
}

describe('pacing on a busy machine', () => {
  it('draws no 429 from a strict burst-1 bucket: every request leaves one bucket interval after the one before', async () => {
    const serverPrefix = [...realTime(), ...onCore(SERVER_CORE)];
    const sim = await startSimulatorProcess(['--rps', String(BUCKET_RPS), '--burst', '1'], serverPrefix);
    cleanup.push(() => sim.stop());
    cleanup.push(pinThisProcess(CLIENT_CORE));
    const busy = busyProcesses(2, CLIENT_CORE, MAX_BUSY_MS);
    cleanup.push(() => busy.stop());
    const thread: Worker = busyThread(MAX_BUSY_MS);
    cleanup.push(() => thread.terminate());

    // When each API request was written (undici's own report, after the write).
    const sends: number[] = [];
    const onSent = (message: unknown) => {
      const { request: r } = message as { request: { path: string } };
      if (r.path.startsWith('/v3/')) sends.push(performance.now());
    };
    subscribe('undici:request:bodySent', onSent);
    cleanup.push(() => unsubscribe('undici:request:bodySent', onSent));

    const client = createApiClient({ baseUrl: sim.url, apiKey: 'sim-key', rps: RPS, concurrency: 4 });
    cleanup.push(() => client.close());
    let left = REQUESTS;
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        while (left-- > 0)
          for await (const _page of client.workspaces()) {
            stall(20);
            break;
          }
      }),
    );

    const gaps = sends.slice(1).map((t, i) => t - sends[i]!);
    expect(gaps.length).toBeGreaterThanOrEqual(REQUESTS - 1);
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(1000 / BUCKET_RPS);
    const stats = (await (await fetch(`${sim.url}/__sim/stats`)).json()) as { throttled: number };
    expect(stats.throttled).toBe(client.stats.throttled);
    // The gaps above are the client's pacing, and the assertion of this test. What the server
    // counts also depends on its own scheduling: beside a whole test suite on two cores, even a
    // real-time server (chrt, as root) was seen to stall once and bunch two requests that left
    // 40 ms apart. So at most one such 429 here; the sync bench's strict-loaded scenario
    // measures the share on a machine doing nothing else.
    if (serverPrefix.includes('chrt')) expect(stats.throttled).toBeLessThanOrEqual(1);
  }, 180_000);

  it("knows when a request is written: undici reports it before the server's reply", async () => {
    let sent = 0;
    let sentBeforeHandler: number | undefined;
    const server = createServer((_req, res) => {
      sentBeforeHandler = sent;
      setTimeout(() => res.end('{}'), 50);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    cleanup.push(() => new Promise((resolve) => server.close(resolve)));
    const agent = new Agent();
    cleanup.push(() => agent.close());
    const { port } = server.address() as AddressInfo;
    for (const method of ['GET', 'POST'] as const) {
      sentBeforeHandler = undefined;
      const before = sent;
      const res = await request(`http://127.0.0.1:${port}/`, {
        method,
        dispatcher: reportingSent(agent, () => sent++),
        ...(method === 'POST' ? { body: '{"a":1}' } : {}),
      });
      await res.body.text();
      expect(sentBeforeHandler).toBe(before + 1);
      expect(sent).toBe(before + 1);
    }
  });
});
