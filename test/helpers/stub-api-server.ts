/**
 * A programmable HTTP(S) stub of the remote API on 127.0.0.1 for the client's tests: every
 * request is recorded (method, path, query, headers, arrival time) and answered by the
 * test's script, which may delay, send any status/headers/body, reset the connection,
 * truncate the body or drip it, or pass the request on to another server (forwardTo: a
 * simulator behind the stub, with faults on chosen requests). Every answer carries
 * `X-Request-Id: req-<n>` (n counts from 1).
 */
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';

export interface StubRequest {
  readonly n: number;
  readonly method: string;
  readonly path: string;
  readonly query: URLSearchParams;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
  readonly at: number;
}

export interface StubReply {
  readonly status?: number;
  readonly headers?: Record<string, string>;
  /** JSON-encoded unless it is a string (sent as is). */
  readonly body?: unknown;
  /** Wait before answering. */
  readonly delayMs?: number;
  /**
   * `reset`: destroy the socket without answering; `truncate`: promise more bytes than sent;
   * `drip`: the headers at once, then the body one byte every `dripMs`, never a silence long
   * enough for a timeout between bytes.
   */
  readonly fault?: 'reset' | 'truncate' | 'drip';
  /** The pause between two bytes of a `drip` (default 100 ms). */
  readonly dripMs?: number;
  /** Called when a `drip` sends its first byte. */
  readonly onDrip?: () => void;
}

export type StubScript = (req: StubRequest) => StubReply | Promise<StubReply>;

export interface StubApiServer {
  readonly url: string;
  readonly requests: StubRequest[];
  /** Highest number of requests being answered at the same time. */
  readonly maxInFlight: number;
  /** Replaces the script answering the next requests. */
  script(script: StubScript): void;
  close(): Promise<void>;
}

export interface StubOptions {
  /** Serve HTTPS with this key and certificate (PEM). */
  readonly tls?: { key: string; cert: string };
}

/** A script answering with `replies` in order, then repeating the last one. */
export function sequence(...replies: StubReply[]): StubScript {
  let i = 0;
  return () => replies[Math.min(i++, replies.length - 1)]!;
}

export async function startStubApiServer(
  script: StubScript,
  options: StubOptions = {},
): Promise<StubApiServer> {
  let current = script;
  let inFlight = 0;
  let maxInFlight = 0;
  const requests: StubRequest[] = [];
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    res.on('close', () => inFlight--);
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const url = new URL(req.url ?? '/', 'http://stub');
    const record: StubRequest = {
      n: requests.length + 1,
      method: req.method ?? 'GET',
      path: url.pathname,
      query: url.searchParams,
      headers: req.headers,
      body: Buffer.concat(chunks).toString('utf8'),
      at: Date.now(),
    };
    requests.push(record);
    const reply = await current(record);
    if (reply.delayMs) await new Promise((r) => setTimeout(r, reply.delayMs));
    if (reply.fault === 'reset') {
      req.socket.destroy();
      return;
    }
    const text =
      reply.body === undefined
        ? ''
        : typeof reply.body === 'string'
          ? reply.body
          : JSON.stringify(reply.body);
    res.statusCode = reply.status ?? 200;
    res.setHeader('X-Request-Id', `req-${record.n}`);
    if (text !== '') res.setHeader('Content-Type', 'application/json');
    for (const [k, v] of Object.entries(reply.headers ?? {})) res.setHeader(k, v);
    if (reply.fault === 'drip') {
      drip(res, Buffer.from(text), reply.dripMs ?? 100, reply.onDrip);
      return;
    }
    if (reply.fault === 'truncate') {
      res.setHeader('Content-Length', String(Buffer.byteLength(text) + 100));
      res.write(text.slice(0, Math.floor(text.length / 2)));
      setTimeout(() => req.socket.destroy(), 10);
      return;
    }
    res.end(text);
  };
  const listener = (req: IncomingMessage, res: ServerResponse) => {
    handle(req, res).catch(() => req.socket.destroy());
  };
  const server = options.tls ? createHttpsServer(options.tls, listener) : createHttpServer(listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `${options.tls ? 'https' : 'http'}://127.0.0.1:${port}`,
    requests,
    get maxInFlight() {
      return maxInFlight;
    },
    script(next) {
      current = next;
    },
    close() {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/** Sends `body` one byte every `everyMs` until it is all sent or the client goes away. */
function drip(res: ServerResponse, body: Buffer, everyMs: number, onFirst?: () => void): void {
  res.setHeader('Content-Length', String(body.length));
  res.flushHeaders();
  let sent = 0;
  const timer = setInterval(() => {
    if (res.destroyed || sent >= body.length) {
      clearInterval(timer);
      if (!res.destroyed) res.end();
      return;
    }
    res.write(body.subarray(sent, sent + 1));
    if (sent++ === 0) onFirst?.();
  }, everyMs);
  res.on('close', () => clearInterval(timer));
}

/**
 * A script passing every request on to `baseUrl` (a simulator) and answering with what came
 * back: status, body, and the headers a client acts on. Combine it with faults:
 * `(req) => isTarget(req) ? fault : forward(req)`.
 */
export function forwardTo(baseUrl: string): StubScript {
  const KEPT = ['content-type', 'retry-after', 'ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset'];
  return async (req) => {
    const query = req.query.toString();
    const res = await fetch(`${baseUrl}${req.path}${query ? `?${query}` : ''}`, {
      method: req.method,
      headers: Object.fromEntries(
        Object.entries(req.headers).filter(
          (entry): entry is [string, string] =>
            typeof entry[1] === 'string' &&
            ['apikey', 'accept', 'content-type', 'x-hook-secret'].includes(entry[0]),
        ),
      ),
      ...(req.body ? { body: req.body } : {}),
    });
    const headers: Record<string, string> = {};
    for (const name of KEPT) {
      const value = res.headers.get(name);
      if (value !== null) headers[name] = value;
    }
    return { status: res.status, headers, body: await res.text() };
  };
}
