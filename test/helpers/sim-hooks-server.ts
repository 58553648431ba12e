/**
 * Test helpers for the simulator's streaming area, usable before the simulator core exists:
 * `callRoute` invokes SimRoute handlers directly, `startRouteServer` is a minimal node:http
 * adapter (no auth, no rate limit) on 127.0.0.1, and `startReceiver` is a loopback push
 * receiver that keeps every raw body and answers as the test tells it to.
 */
import { randomUUID } from 'node:crypto';
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { SimRequest, SimResponse, SimRoute } from '../../src/simulator/route.js';

export interface CallOptions {
  readonly body?: unknown;
  readonly rawBody?: string;
  readonly headers?: IncomingHttpHeaders;
  readonly query?: Record<string, string>;
}

/** Finds the route for method + path and calls it, as the simulator core would (minus auth). */
export async function callRoute(
  routes: readonly SimRoute[],
  method: string,
  path: string,
  options: CallOptions = {},
): Promise<SimResponse> {
  const body =
    options.rawBody !== undefined
      ? Buffer.from(options.rawBody)
      : options.body === undefined
        ? Buffer.alloc(0)
        : Buffer.from(JSON.stringify(options.body));
  return dispatch(routes, {
    method,
    path,
    query: new URLSearchParams(options.query),
    headers: options.headers ?? {},
    body,
    requestId: randomUUID(),
    now: new Date(),
  });
}

async function dispatch(routes: readonly SimRoute[], req: SimRequest): Promise<SimResponse> {
  for (const route of routes) {
    if (route.method !== req.method) continue;
    const match = route.pattern.exec(req.path);
    if (match) return route.handle(req, match.slice(1));
  }
  return {
    status: 404,
    body: { errors: [{ details: 'no route', title: 'Not found', type: 'not_found', meta: {} }] },
  };
}

export interface RunningServer {
  readonly url: string;
  close(): Promise<void>;
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Serves `routes` over HTTP on 127.0.0.1 the way the simulator core does (JSON, X-Request-Id). */
export async function startRouteServer(routes: readonly SimRoute[]): Promise<RunningServer> {
  const server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const requestId = randomUUID();
      const answer = await dispatch(routes, {
        method: req.method ?? 'GET',
        path: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        body: await readBody(req),
        requestId,
        now: new Date(),
      });
      res.statusCode = answer.status;
      res.setHeader('X-Request-Id', requestId);
      for (const [name, value] of Object.entries(answer.headers ?? {})) res.setHeader(name, value);
      if (answer.body === undefined) {
        res.end();
        return;
      }
      res.setHeader('Content-Type', 'application/json');
      res.end(JSON.stringify(answer.body));
    })();
  });
  const url = await listen(server);
  return { url, close: () => closeServer(server) };
}

export interface ReceivedPush {
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
  readonly path: string;
}

/** What the receiver does with the n-th request (0-based): answer a status, or never answer. */
export type Responder = (index: number, push: ReceivedPush) => number | 'hang';

export interface Receiver extends RunningServer {
  readonly received: ReceivedPush[];
  /** Resolves once at least `count` requests arrived; rejects after `timeoutMs`. */
  waitFor(count: number, timeoutMs?: number): Promise<void>;
}

export interface ReceiverOptions {
  readonly respond?: Responder;
  /** Serve HTTPS with this key and certificate instead of HTTP. */
  readonly tls?: { readonly key: string; readonly cert: string };
}

/** A loopback push receiver that records every request's raw body and headers. */
export async function startReceiver(options: ReceiverOptions = {}): Promise<Receiver> {
  const respond = options.respond ?? (() => 200);
  const received: ReceivedPush[] = [];
  const waiters: { count: number; resolve: () => void }[] = [];
  const handler = (req: IncomingMessage, res: ServerResponse): void => {
    void (async () => {
      const push = { headers: req.headers, body: await readBody(req), path: req.url ?? '/' };
      const index = received.length;
      received.push(push);
      for (const w of waiters.filter((x) => received.length >= x.count)) w.resolve();
      const answer = respond(index, push);
      if (answer === 'hang') return;
      res.statusCode = answer;
      res.end();
    })();
  };
  const server = options.tls ? createHttpsServer(options.tls, handler) : createServer(handler);
  const httpUrl = await listen(server as Server);
  const url = options.tls ? httpUrl.replace('http:', 'https:') : httpUrl;
  return {
    url,
    received,
    waitFor: (count, timeoutMs = 10_000) =>
      new Promise<void>((resolve, reject) => {
        if (received.length >= count) return resolve();
        const timer = setTimeout(
          () => reject(new Error(`receiver got ${received.length} of ${count} requests`)),
          timeoutMs,
        );
        waiters.push({
          count,
          resolve: () => {
            clearTimeout(timer);
            resolve();
          },
        });
      }),
    close: () => closeServer(server as Server),
  };
}

/** The parsed JSON body of a push. */
export interface PushBody {
  readonly request: { readonly hook_id: string; readonly search_id: number; readonly company_id: string };
  readonly documents: readonly ({ readonly id: string } & Record<string, unknown>)[];
}

export function parsePush(push: ReceivedPush): PushBody {
  return JSON.parse(push.body.toString('utf8')) as PushBody;
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
