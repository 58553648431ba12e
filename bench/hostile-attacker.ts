/**
 * Worker thread of the hostile benchmark: the attacker, on an event loop of its own so that
 * its thousands of sockets never delay the genuine sender measured in the main thread.
 * `bodies`: `slots` senders each POST a forged body of `bodyBytes` to a valid hook path, again
 * and again until the deadline (pausing `pauseMs` after each answer, ignoring Retry-After);
 * each stops sending as soon as it is answered or its connection is closed.
 * `trickle`: `slots` connections each send a request head one header line every
 * `trickleEveryMs`, never finishing it; one closed by the sink is opened again until the deadline.
 * Posts one AttackResult when done.
 */
import { request } from 'node:http';
import { connect } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { parentPort, workerData } from 'node:worker_threads';

export interface AttackPlan {
  readonly mode: 'bodies' | 'trickle';
  readonly url: string;
  readonly path: string;
  readonly slots: number;
  readonly durationMs: number;
  readonly bodyBytes: number;
  readonly pauseMs: number;
  readonly trickleEveryMs: number;
}

export interface AttackResult {
  /** Requests (bodies) or connections (trickle) started. */
  readonly attempts: number;
  /** Answers by status code; 0 = no answer (connection closed or reset first). */
  readonly statuses: Record<string, number>;
  /** Body bytes handed to the socket (bodies). */
  readonly sentBytes: number;
  /** trickle: connections the sink closed, and how long each had been open (ms, sorted). */
  readonly closedAfterMs: number[];
  /** trickle: connections still open at the deadline (closed then by the attacker). */
  readonly openAtEnd: number;
}

/** trickle: new connections per second while the attacker builds up its slots. */
const RAMP_PER_SECOND = 1_000;

const CHUNK = Buffer.alloc(64 * 1024, 0x20);
/** A well-formed SHA-256 signature of no body: passes the sink's header check, fails its HMAC. */
const FORGED_SIGNATURE = `sha256=${'0'.repeat(64)}`;

function forgedBody(plan: AttackPlan, count: (status: number, sent: number) => void): Promise<void> {
  return new Promise((resolve) => {
    let sent = 0;
    let done = false;
    const finish = (status: number): void => {
      if (done) return;
      done = true;
      count(status, sent);
      // Stop sending: the attacker gains nothing by finishing a refused body.
      req.destroy();
      resolve();
    };
    const req = request(
      `${plan.url}${plan.path}`,
      {
        method: 'POST',
        agent: false,
        headers: {
          'content-type': 'application/json',
          'content-length': plan.bodyBytes,
          'x-hub-signature-256': FORGED_SIGNATURE,
        },
      },
      (res) => {
        res.resume();
        finish(res.statusCode ?? 0);
      },
    );
    req.on('error', () => finish(0));
    req.on('close', () => finish(0));
    const pump = (): void => {
      while (!done && sent < plan.bodyBytes) {
        const n = Math.min(CHUNK.length, plan.bodyBytes - sent);
        sent += n;
        if (!req.write(n === CHUNK.length ? CHUNK : CHUNK.subarray(0, n))) {
          req.once('drain', pump);
          return;
        }
      }
      if (!done) req.end();
    };
    pump();
  });
}

async function bodies(plan: AttackPlan): Promise<AttackResult> {
  const deadline = performance.now() + plan.durationMs;
  const statuses: Record<string, number> = {};
  let attempts = 0;
  let sentBytes = 0;
  const count = (status: number, sent: number): void => {
    statuses[status] = (statuses[status] ?? 0) + 1;
    sentBytes += sent;
  };
  const slot = async (): Promise<void> => {
    while (performance.now() < deadline) {
      attempts += 1;
      await forgedBody(plan, count);
      await sleep(plan.pauseMs);
    }
  };
  await Promise.all(Array.from({ length: plan.slots }, slot));
  return { attempts, statuses, sentBytes, closedAfterMs: [], openAtEnd: 0 };
}

async function trickle(plan: AttackPlan): Promise<AttackResult> {
  const { hostname, port } = new URL(plan.url);
  const deadline = performance.now() + plan.durationMs;
  const statuses: Record<string, number> = {};
  const closedAfterMs: number[] = [];
  let attempts = 0;
  let openAtEnd = 0;
  const connection = (): Promise<void> =>
    new Promise((resolve) => {
      attempts += 1;
      let opened = performance.now();
      const socket = connect({ host: hostname, port: Number(port) });
      let answer = '';
      let line = 0;
      let timer: NodeJS.Timeout | undefined;
      const next = (): void => {
        socket.write(`x-trickle-${line++}: 1\r\n`);
        timer = setTimeout(next, plan.trickleEveryMs);
      };
      // Still open at the deadline: the sink did not close it; the attacker does.
      const stop = setTimeout(
        () => {
          openAtEnd += 1;
          socket.destroy();
        },
        Math.max(0, deadline - opened),
      );
      socket.on('data', (chunk: Buffer) => {
        answer += chunk.toString('latin1');
      });
      socket.on('error', () => {});
      socket.once('connect', () => {
        // Timed from the connection's establishment: the sink's timer starts when it accepts.
        opened = performance.now();
        socket.write(`POST ${plan.path} HTTP/1.1\r\nhost: sink.example\r\n`);
        timer = setTimeout(next, plan.trickleEveryMs);
      });
      socket.once('close', () => {
        clearTimeout(timer);
        clearTimeout(stop);
        if (performance.now() < deadline) {
          const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1] ?? 0);
          statuses[status] = (statuses[status] ?? 0) + 1;
          closedAfterMs.push(performance.now() - opened);
        }
        resolve();
      });
    });
  // Opened at RAMP_PER_SECOND, as a slowloris client builds up; each reopens as soon as closed.
  const slot = async (i: number): Promise<void> => {
    await sleep((i / RAMP_PER_SECOND) * 1000);
    while (performance.now() < deadline) await connection();
  };
  await Promise.all(Array.from({ length: plan.slots }, (_, i) => slot(i)));
  closedAfterMs.sort((a, b) => a - b);
  return { attempts, statuses, sentBytes: 0, closedAfterMs, openAtEnd };
}

if (parentPort) {
  const plan = workerData as AttackPlan;
  const result = await (plan.mode === 'bodies' ? bodies(plan) : trickle(plan));
  parentPort.postMessage(result);
}
