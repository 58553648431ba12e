/**
 * The API simulator: a local HTTP(S) server behaving like the remote API exactly as
 * api-profile.md fixes it. Tests, benchmarks and the demo run against it.
 *
 * Keys (header `apikey`): DEFAULT_KEYS below; 401 for a missing or unknown key, 403 for a
 * key not entitled to a route's area. Introspection under /__sim/ needs no key and is never
 * rate limited or faulted.
 */
import { randomUUID } from 'node:crypto';
import {
  createServer as createHttpServer,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { generate } from 'selfsigned';
import { errorResponse } from './error-response.js';
import { type Fault, type FaultOptions, NO_FAULTS, pickFault } from './faults.js';
import { formatRetryAfter, type RetryAfterFormat } from './format-retry-after.js';
import { createHookService, type HookService, type HookServiceOptions } from './hooks/hook-service.js';
import { createInfluencerRoutes } from './influencer-routes.js';
import { SimModel } from './model/sim-model.js';
import { DEFAULT_SIZE, type SimSize } from './model/sim-size.js';
import type { Area, SimRequest, SimResponse, SimRoute } from './route.js';
import { SimClock } from './sim-clock.js';
import { SimStats } from './sim-stats.js';
import { TokenBucket } from './token-bucket.js';

export interface SimulatorOptions {
  readonly host: string;
  readonly port: number;
  readonly seed: number;
  readonly size: SimSize;
  /** API key → the areas it is entitled to. */
  readonly keys: Readonly<Record<string, readonly Area[]>>;
  readonly rateLimit?: { readonly rps: number; readonly burst: number };
  readonly retryAfterFormat: RetryAfterFormat;
  readonly faults: FaultOptions;
  /** Schema drift on every influencer response (see drift.ts). */
  readonly drift: boolean;
  /** Start of the simulated clock (default: the real time). */
  readonly startTime?: Date;
  readonly tls: boolean;
  readonly hooks: Partial<Omit<HookServiceOptions, 'seed' | 'now'>>;
}

export const DEFAULT_KEYS: Readonly<Record<string, readonly Area[]>> = {
  'sim-key': ['influencers', 'streaming', 'searches'],
  'sim-streaming-key': ['streaming', 'searches'],
  'sim-influencers-key': ['influencers'],
};

export interface RunningSimulator {
  /** Base URL without /v3, e.g. http://127.0.0.1:PORT */
  readonly url: string;
  readonly port: number;
  /** PEM of the self-signed certificate, in TLS mode. */
  readonly ca?: string;
  readonly clock: SimClock;
  readonly model: SimModel;
  readonly hooks: HookService;
  stats(): Record<string, unknown>;
  close(): Promise<void>;
}

export async function startSimulator(partial: Partial<SimulatorOptions> = {}): Promise<RunningSimulator> {
  const options: SimulatorOptions = {
    host: '127.0.0.1',
    port: 0,
    seed: 1,
    size: DEFAULT_SIZE,
    keys: DEFAULT_KEYS,
    retryAfterFormat: 'iso',
    drift: false,
    tls: false,
    hooks: {},
    ...partial,
    faults: { ...NO_FAULTS, ...partial.faults },
  };
  const clock = new SimClock(options.startTime ?? new Date());
  const model = new SimModel(options.seed, options.size);
  const hooks = createHookService({ ...options.hooks, seed: options.seed, now: () => clock.now() });
  const routes: readonly SimRoute[] = [
    ...createInfluencerRoutes(model, { drift: options.drift }),
    ...hooks.routes,
  ];
  const stats = new SimStats();
  const bucket = options.rateLimit
    ? new TokenBucket(options.rateLimit.rps, options.rateLimit.burst)
    : undefined;
  let requestNumber = 0;

  const handler = (req: IncomingMessage, res: ServerResponse): void => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://sim');
      const requestId = randomUUID();
      res.setHeader('X-Request-Id', requestId);
      if (url.pathname.startsWith('/__sim/')) {
        send(res, introspect(req.method ?? 'GET', url.pathname, Buffer.concat(chunks)));
        return;
      }
      const simReq: SimRequest = {
        method: req.method ?? 'GET',
        path: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        body: Buffer.concat(chunks),
        requestId,
        now: clock.now(),
      };
      void answer(simReq, res).catch((error: unknown) => {
        send(res, errorResponse(500, 'server_error', 'Internal error', String(error)));
      });
    });
  };

  async function answer(req: SimRequest, res: ServerResponse): Promise<void> {
    const matches = routes.filter((r) => r.pattern.test(req.path));
    const route = matches.find((r) => r.method === req.method);
    const endpoint = route ? `${route.method} ${endpointName(route.pattern)}` : `${req.method} (unknown)`;
    const finish = (response: SimResponse, fault?: Fault) => {
      stats.record(endpoint, response.status, fault);
      return sendWithFault(res, response, fault, options.faults.slowMs);
    };
    if (!route) {
      const status = matches.length ? 405 : 404;
      return finish(
        errorResponse(
          status,
          status === 405 ? 'method_not_allowed' : 'not_found',
          'No route',
          `${req.method} ${req.path}`,
        ),
      );
    }
    const key = req.headers.apikey;
    const areas = typeof key === 'string' ? options.keys[key] : undefined;
    if (!areas) return finish(errorResponse(401, 'unauthorized', 'Unauthorized', 'invalid or expired token'));
    if (!areas.includes(route.area)) {
      return finish(
        errorResponse(403, 'forbidden', 'Forbidden', `not entitled to the ${route.area} service`),
      );
    }
    if (bucket) {
      const taken = bucket.take();
      res.setHeader('RateLimit-Limit', String(options.rateLimit!.rps));
      res.setHeader('RateLimit-Reset', String(bucket.resetAt()));
      if (!taken.ok) {
        res.setHeader('RateLimit-Remaining', '0');
        return finish(tooMany(taken.waitMs));
      }
      res.setHeader('RateLimit-Remaining', String(taken.remaining));
    }
    const fault = pickFault(options.seed, requestNumber++, options.faults);
    if (fault === 'overload') return finish(tooMany(1_000), fault);
    if (fault === '500')
      return finish(errorResponse(500, 'server_error', 'Internal error', 'simulated failure'), fault);
    if (fault === '503') return finish({ status: 503, body: { message: 'Service Unavailable' } }, fault);
    return finish(await route.handle(req, req.path.match(route.pattern)!.slice(1)), fault);
  }

  function tooMany(waitMs: number): SimResponse {
    return {
      status: 429,
      headers: { 'Retry-After': formatRetryAfter(options.retryAfterFormat, waitMs) },
      body: { message: 'Service Overloaded', errors: {} },
    };
  }

  function introspect(method: string, path: string, body: Buffer): SimResponse {
    if (path === '/__sim/stats' && method === 'GET') {
      return {
        status: 200,
        body: { ...stats.snapshot(), hooks: hooks.stats(), now: clock.now().toISOString() },
      };
    }
    if (path === '/__sim/clock' && method === 'POST') {
      let input: { now?: unknown; advanceMs?: unknown };
      try {
        input = JSON.parse(body.toString() || '{}') as { now?: unknown; advanceMs?: unknown };
      } catch {
        return errorResponse(
          400,
          'invalid_request',
          'Invalid body',
          'expected JSON {"now": ISO} or {"advanceMs": n}',
        );
      }
      const at = typeof input.now === 'string' ? new Date(input.now) : undefined;
      if (at && Number.isNaN(at.getTime()))
        return errorResponse(400, 'invalid_request', 'Invalid now', 'now must be ISO-8601');
      if (at) clock.set(at);
      if (typeof input.advanceMs === 'number') clock.advance(input.advanceMs);
      return { status: 200, body: { now: clock.now().toISOString() } };
    }
    return errorResponse(404, 'not_found', 'Not found', `no ${method} ${path}`);
  }

  let ca: string | undefined;
  let server: Server;
  if (options.tls) {
    const pems = await generate([{ name: 'commonName', value: '127.0.0.1' }], {
      keyType: 'ec',
      algorithm: 'sha256',
      extensions: [
        {
          name: 'subjectAltName',
          altNames: [
            { type: 7, ip: '127.0.0.1' },
            { type: 2, value: 'localhost' },
          ],
        },
      ],
    });
    ca = pems.cert;
    server = createHttpsServer({ key: pems.private, cert: pems.cert }, handler);
  } else {
    server = createHttpServer(handler);
  }
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  return {
    url: `${options.tls ? 'https' : 'http'}://${host}:${port}`,
    port,
    ...(ca ? { ca } : {}),
    clock,
    model,
    hooks,
    stats: () => ({ ...stats.snapshot(), hooks: hooks.stats(), now: clock.now().toISOString() }),
    close: async () => {
      await hooks.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** `^\/v3\/hooks\/([^/]+)$` → `/v3/hooks/{id}`: readable keys for the per-endpoint counters. */
function endpointName(pattern: RegExp): string {
  return pattern.source.replace(/\(\[\^\/\]\+\)/g, '{id}').replace(/[\^$\\?]/g, '');
}

function send(res: ServerResponse, response: SimResponse): void {
  sendWithFault(res, response, undefined, 0);
}

function sendWithFault(
  res: ServerResponse,
  response: SimResponse,
  fault: Fault | undefined,
  slowMs: number,
): void {
  for (const [name, value] of Object.entries(response.headers ?? {})) res.setHeader(name, value);
  if (response.body === undefined) {
    res.writeHead(response.status).end();
    return;
  }
  const body = Buffer.from(JSON.stringify(response.body));
  res.setHeader('Content-Type', 'application/json');
  if (fault === 'slow') {
    setTimeout(() => sendWithFault(res, response, undefined, 0), slowMs);
    return;
  }
  if (fault === 'invalid-json') {
    const broken = Buffer.concat([body.subarray(0, Math.floor(body.length / 2)), Buffer.from('<html>oops')]);
    res.setHeader('Content-Length', String(broken.length));
    res.writeHead(response.status).end(broken);
    return;
  }
  res.setHeader('Content-Length', String(body.length));
  res.writeHead(response.status);
  if (fault === 'reset' || fault === 'truncate') {
    res.write(body.subarray(0, Math.floor(body.length / 2)), () => {
      if (fault === 'reset') res.socket?.resetAndDestroy();
      else res.socket?.end();
    });
    return;
  }
  res.end(body);
}
