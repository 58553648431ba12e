import { connect, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { hookPath } from '../../src/sink/hook-path.js';
import type { SinkOptions } from '../../src/sink/sink-options.js';
import { type RunningSink, startSink } from '../../src/sink/start-sink.js';
import { openInboxDb } from '../../src/state/inbox-db.js';
import {
  deliveryBody,
  insertHook,
  sampleDocument,
  signatureHeaders,
  type TestHook,
} from '../helpers/sink-fixtures.js';
import { removableTempDir } from '../helpers/temp-dir.js';

const MiB = 1024 * 1024;
/** Over the 1 MiB of a "small" body, so these bodies may only use the budget's large share. */
const BODY_LIMIT = 2 * MiB;
/** Large share: 3 MiB, so one body at the limit in flight leaves no room for a second. */
const BODY_BUDGET = 4 * MiB;
/** A well-formed signature header that matches no body: passes the pre-body check, fails the HMAC. */
const FORGED = { 'x-hub-signature-256': `sha256=${'0'.repeat(64)}` };

/** A raw TCP connection to the sink: what it sends, everything the sink answers, and when it closes. */
interface Raw {
  readonly socket: Socket;
  /** All bytes the sink sent, once it closed the connection. */
  readonly closed: Promise<string>;
  /** Resolves with the status line's code once a response head has arrived. */
  readonly status: Promise<number>;
  received(): string;
}

function rawConnection(url: string): Promise<Raw> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port) });
    let text = '';
    let gotStatus: (code: number) => void = () => {};
    const status = new Promise<number>((r) => {
      gotStatus = r;
    });
    const closed = new Promise<string>((r) => socket.once('close', () => r(text)));
    socket.on('data', (chunk: Buffer) => {
      text += chunk.toString('latin1');
      const code = /^HTTP\/1\.1 (\d{3})/.exec(text)?.[1];
      if (code) gotStatus(Number(code));
    });
    // The sink may reset a connection it refused while this side still writes.
    socket.on('error', () => {});
    socket.once('connect', () => resolve({ socket, closed, status, received: () => text }));
    socket.once('error', reject);
  });
}

function head(path: string, headers: Record<string, string | number>): string {
  const lines = Object.entries({ host: 'sink.test', ...headers }).map(([k, v]) => `${k}: ${v}`);
  return `POST ${path} HTTP/1.1\r\n${lines.join('\r\n')}\r\n\r\n`;
}

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await sleep(5);
}

/** Every `pauseMs`, writes `piece` until the sink closes the connection; resolves with what it answered. */
async function trickle(raw: Raw, piece: (i: number) => string, pauseMs: number): Promise<string> {
  let open = true;
  void raw.closed.then(() => {
    open = false;
  });
  for (let i = 0; open; i++) {
    raw.socket.write(piece(i));
    await sleep(pauseMs);
  }
  return raw.closed;
}

/**
 * A genuine sender: one small signed delivery after another (as fast as they are answered)
 * until stop(); the status of each and the delivery id of each acknowledged one.
 */
function genuineSender(sink: RunningSink, hook: TestHook, prefix: string) {
  const statuses: number[] = [];
  const acknowledged: number[] = [];
  let stopped = false;
  // Stopped when the test ends, however it ends.
  onTestFinished(async () => {
    stopped = true;
    await done.catch(() => {});
  });
  const done = (async () => {
    for (let n = 0; !stopped; n++) {
      const body = deliveryBody(hook, [sampleDocument(`${prefix}-${n}`)]);
      const response = await fetch(`${sink.url}${hookPath(hook.pathToken)}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...signatureHeaders(hook.secret, body) },
        body,
      });
      statuses.push(response.status);
      const answer = (await response.json()) as { delivery_id?: number };
      if (response.status === 200) acknowledged.push(answer.delivery_id as number);
      await sleep(5);
    }
  })();
  return {
    statuses,
    acknowledged,
    stop: async () => {
      stopped = true;
      await done;
    },
  };
}

function inboxDeliveryIds(dataDir: string): Set<number> {
  const inbox = openInboxDb(dataDir);
  try {
    const rows = inbox.sqlite.prepare('select delivery_id from deliveries').all() as {
      delivery_id: number;
    }[];
    return new Set(rows.map((r) => r.delivery_id));
  } finally {
    inbox.close();
  }
}

async function metricsText(sink: RunningSink): Promise<string> {
  return (await fetch(`${sink.url}/metrics`)).text();
}

/** A sink on loopback for one describe block, with its warnings captured; stopped after the block. */
function hostileSink(options: Omit<SinkOptions, 'dataDir' | 'logger'>) {
  const data = removableTempDir('cw-sink-hostile-');
  const context = {
    sink: undefined as unknown as RunningSink,
    hook: undefined as unknown as TestHook,
    dataDir: data.dir,
    warnings: [] as { msg: string; events: number }[],
    /** Warning lines whose message contains `text`. */
    lines: (text: string) => context.warnings.filter((w) => w.msg.includes(text)),
  };
  const logger = pino(
    { level: 'warn' },
    { write: (line: string) => context.warnings.push(JSON.parse(line)) },
  );
  beforeAll(async () => {
    context.hook = insertHook(data.dir);
    context.sink = await startSink({
      dataDir: data.dir,
      port: 0,
      publishIntervalMs: 600_000,
      ...options,
      logger,
    });
  });
  afterAll(async () => {
    await context.sink.close();
    data.remove();
  });
  return context;
}

/** Every acknowledged delivery id is a row of the inbox. */
function expectAllStored(dataDir: string, acknowledged: readonly number[]): void {
  const stored = inboxDeliveryIds(dataDir);
  expect(acknowledged.filter((id) => !stored.has(id))).toEqual([]);
}

describe('sink under hostile clients: the body budget', () => {
  // Default timeouts: the held body below waits as long as the test needs, whatever the machine's speed.
  const t = hostileSink({ bodyLimitBytes: BODY_LIMIT, bodyBudgetBytes: BODY_BUDGET });

  it('503 + Retry-After before the body is read once the budget is full, while genuine deliveries get 200', async () => {
    const { sink, hook } = t;
    const path = hookPath(hook.pathToken);
    const genuine = genuineSender(sink, hook, 'budget');
    // A forged body at the limit is admitted (room for it) and held: its sender sends nothing yet.
    const holder = await rawConnection(sink.url);
    holder.socket.write(
      head(path, { 'content-type': 'application/json', 'content-length': BODY_LIMIT, ...FORGED }),
    );
    // (Genuine deliveries in flight hold a few hundred bytes each beside it.)
    await until(() => sink.stats().bodyBytesInFlight >= BODY_LIMIT);

    // A second one: refused on its head alone, without one body byte sent, and its connection closed.
    const refused = await rawConnection(sink.url);
    refused.socket.write(
      head(path, { 'content-type': 'application/json', 'content-length': BODY_LIMIT, ...FORGED }),
    );
    const answer = await refused.closed;
    expect(answer).toMatch(/^HTTP\/1\.1 503 /);
    expect(answer).toMatch(/\r\nRetry-After: 5\r\n/i);
    expect(sink.stats().bodyBytesInFlight).toBeLessThan(BODY_LIMIT + MiB);

    // A chunked one is refused by its running count as soon as it crosses into the large share
    // (413 would mean it was read up to the body limit instead). Its sender is still writing
    // when the sink closes: the kernel may then reset the connection before the 503 is read.
    const chunked = await rawConnection(sink.url);
    chunked.socket.write(
      head(path, { 'content-type': 'application/json', 'transfer-encoding': 'chunked', ...FORGED }),
    );
    const piece = 'x'.repeat(64 * 1024);
    const chunkedAnswer = await trickle(chunked, () => `${piece.length.toString(16)}\r\n${piece}\r\n`, 1);
    expect(chunkedAnswer === '' || chunkedAnswer.startsWith('HTTP/1.1 503 ')).toBe(true);
    expect(sink.stats().outcomes).toMatchObject({ over_budget: 2, too_large: 0 });

    // Small genuine deliveries kept flowing while the budget's large share was full.
    const before = genuine.statuses.length;
    await until(() => genuine.statuses.length >= before + 3);

    // The held body, sent at last, is read and refused for its signature; its bytes are given back.
    holder.socket.write(Buffer.alloc(BODY_LIMIT, 0x20));
    expect(await holder.status).toBe(401);
    await until(() => sink.stats().bodyBytesInFlight === 0);
    holder.socket.destroy();

    await genuine.stop();
    expect(genuine.statuses.length).toBeGreaterThan(3);
    expect(new Set(genuine.statuses)).toEqual(new Set([200]));
    expectAllStored(t.dataDir, genuine.acknowledged);
    expect(sink.stats().outcomes).toMatchObject({ over_budget: 2, bad_signature: 1 });

    // Counted in /metrics; noted in the log once, not once per refusal.
    const metrics = await metricsText(sink);
    expect(metrics).toContain('sink_deliveries_total{outcome="over_budget"} 2');
    expect(metrics).toContain('sink_body_bytes_in_flight 0');
    expect(t.lines('body budget')).toEqual([expect.objectContaining({ events: 1 })]);
  });
});

describe('sink under hostile clients: the timeouts', () => {
  const t = hostileSink({ headersTimeoutMs: 300, requestTimeoutMs: 1_000 });

  it('a connection trickling its headers, or its body, is closed with 408, counted and noted once', async () => {
    const { sink, hook } = t;
    const path = hookPath(hook.pathToken);
    const genuine = genuineSender(sink, hook, 'timeouts');
    // One more header line every 50 ms, for ever: only the headers timeout ends it.
    const slowHeads = await Promise.all([rawConnection(sink.url), rawConnection(sink.url)]);
    const answers = await Promise.all(
      slowHeads.map((raw) => {
        raw.socket.write(`POST ${path} HTTP/1.1\r\nhost: sink.test\r\n`);
        return trickle(raw, (i) => `x-trickle-${i}: 1\r\n`, 50);
      }),
    );
    for (const answer of answers) expect(answer).toMatch(/^HTTP\/1\.1 408 /);

    const slowBody = await rawConnection(sink.url);
    const body = deliveryBody(hook, [sampleDocument('slow')]);
    slowBody.socket.write(
      head(path, {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(body),
        ...signatureHeaders(hook.secret, body),
      }),
    );
    expect(await trickle(slowBody, (i) => body.charAt(i), 50)).toMatch(/^HTTP\/1\.1 408 /);

    await genuine.stop();
    expect(genuine.statuses.length).toBeGreaterThan(0);
    expect(new Set(genuine.statuses)).toEqual(new Set([200]));
    expectAllStored(t.dataDir, genuine.acknowledged);
    // The slow body was never acknowledged: its sender timed out before its last byte.
    expect(sink.stats().outcomes.aborted).toBe(1);
    await until(() => sink.stats().bodyBytesInFlight === 0);

    const metrics = await metricsText(sink);
    expect(metrics).toContain('sink_connection_timeouts_total{phase="headers"} 2');
    expect(metrics).toContain('sink_connection_timeouts_total{phase="body"} 1');
    expect(t.lines('no complete headers')).toHaveLength(1);
    expect(t.lines('no complete request')).toHaveLength(1);
  });
});

describe('sink under hostile clients: the connection cap', () => {
  const CAP = 4;
  const t = hostileSink({ maxConnections: CAP });

  it('closes a connection over the cap at once, counts it, and serves again once there is room', async () => {
    const { sink, hook } = t;
    const held: Raw[] = [];
    while (sink.stats().openConnections < CAP) {
      const raw = await rawConnection(sink.url);
      raw.socket.write(`POST ${hookPath(hook.pathToken)} HTTP/1.1\r\n`);
      held.push(raw);
      await until(() => sink.stats().openConnections >= held.length);
    }
    const over = await rawConnection(sink.url);
    over.socket.write(`POST ${hookPath(hook.pathToken)} HTTP/1.1\r\n`);
    // Closed without a byte of answer, while the held ones stay open.
    expect(await over.closed).toBe('');
    expect(sink.stats().openConnections).toBe(CAP);

    for (const raw of held) raw.socket.destroy();
    await until(() => sink.stats().openConnections === 0);
    const body = deliveryBody(hook, [sampleDocument('after-cap')]);
    const response = await fetch(`${sink.url}${hookPath(hook.pathToken)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...signatureHeaders(hook.secret, body) },
      body,
    });
    expect(response.status).toBe(200);
    const { delivery_id: id } = (await response.json()) as { delivery_id: number };
    expectAllStored(t.dataDir, [id]);
    expect(await metricsText(sink)).toContain('sink_connections_refused_total 1');
    expect(t.lines('refusing connections')).toHaveLength(1);
  });
});
