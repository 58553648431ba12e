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
import { errorResponse } from './error-response.js';
import { type Fault, type FaultOptions, NO_FAULTS, overloadWait, pickFault } from './faults.js';
import { formatRetryAfter, type RetryAfterFormat } from './format-retry-after.js';
import { createHookService, type HookService, type HookServiceOptions } from './hooks/hook-service.js';
import type { Inconsistency } from './inconsistency.js';
import { createInfluencerRoutes } from './influencer-routes.js';
import { NO_HISTORY, type SimHistory } from './model/history.js';
import { SimModel } from './model/sim-model.js';
import { DEFAULT_SIZE, type SimSize } from './model/sim-size.js';
import { type LoggedRequest, RequestLog } from './request-log.js';
import type { Area, SimRequest, SimResponse, SimRoute } from './route.js';
import { selfSignedLoopbackCert } from './self-signed-cert.js';
import { send, sendWithFault } from './send-response.js';
import { SimClock } from './sim-clock.js';
import { type SimStatsSnapshot, SimStats as StatsCounter } from './sim-stats.js';
import { TokenBucket } from './token-bucket.js';

export type { ViewFilter } from './model/sim-model.js';
export type { FaultOptions, HookService, RetryAfterFormat, SimModel, SimSize };

export interface SimulatorOptions {
  readonly host: string;
  readonly port: number;
  readonly seed: number;
  readonly size: SimSize;
  /** API key → the areas it is entitled to. */
  readonly keys: Readonly<Record<string, readonly Area[]>>;
  /**
   * A token bucket per simulator: `rps` refill, `burst` capacity. Its RateLimit-* headers
   * go on every answer unless `announce` is false (a server limiting without saying how).
   */
  readonly rateLimit?: { readonly rps: number; readonly burst: number; readonly announce?: boolean };
  readonly retryAfterFormat: RetryAfterFormat;
  readonly faults: FaultOptions;
  /** Schema drift on every influencer response (see drift.ts). */
  readonly drift: boolean;
  /** Campaigns whose figures break the API's own consistency rules (see inconsistency.ts). */
  readonly inconsistent: readonly Inconsistency[];
  /** Start of the simulated clock (default: the real time). */
  readonly startTime?: Date;
  /** How figures move over simulated days, and changes injected on chosen days (history.ts). */
  readonly history: SimHistory;
  readonly tls: boolean;
  readonly hooks: Partial<Omit<HookServiceOptions, 'seed' | 'now'>>;
}

export const DEFAULT_KEYS: Readonly<Record<string, readonly Area[]>> = {
  'sim-key': ['influencers', 'streaming', 'searches'],
  'sim-streaming-key': ['streaming', 'searches'],
  'sim-influencers-key': ['influencers'],
};

/** GET /__sim/stats and RunningSimulator.stats(): API counters, the hook service's, the simulated time. */
export interface SimStats extends SimStatsSnapshot {
  readonly hooks: Record<string, number>;
  /** The simulated time, ISO-8601 UTC. */
  readonly now: string;
}

export interface RunningSimulator {
  /** Base URL without /v3, e.g. http://127.0.0.1:PORT */
  readonly url: string;
  readonly port: number;
  /** PEM of the self-signed certificate, in TLS mode. */
  readonly ca?: string;
  readonly clock: SimClock;
  readonly model: SimModel;
  readonly hooks: HookService;
  stats(): SimStats;
  /** The newest API requests (up to 10,000): arrival time, endpoint, status. */
  requestLog(): readonly LoggedRequest[];
  close(): Promise<void>;
}

/**
 * What startSimulator accepts: any part of SimulatorOptions; `faults` and `size` may be
 * partial too (merged over NO_FAULTS / DEFAULT_SIZE), and `overloadRate` may be given at
 * the top level (it wins over faults.overloadRate).
 */
export type SimulatorInput = Partial<Omit<SimulatorOptions, 'faults' | 'size'>> & {
  readonly faults?: Partial<FaultOptions>;
  readonly size?: Partial<SimSize>;
  readonly overloadRate?: number;
};

export async function startSimulator(partial: SimulatorInput = {}): Promise<RunningSimulator> {
  const { overloadRate, ...rest } = partial;
  const options: SimulatorOptions = {
    host: '127.0.0.1',
    port: 0,
    seed: 1,
    keys: DEFAULT_KEYS,
    retryAfterFormat: 'iso',
    drift: false,
    inconsistent: [],
    history: NO_HISTORY,
    tls: false,
    hooks: {},
    ...rest,
    size: { ...DEFAULT_SIZE, ...partial.size },
    faults: { ...NO_FAULTS, ...partial.faults, ...(overloadRate === undefined ? {} : { overloadRate }) },
  };
  const clock = new SimClock(options.startTime ?? new Date());
  const model = new SimModel(options.seed, options.size, options.history);
  const hooks = createHookService({ ...options.hooks, seed: options.seed, now: () => clock.now() });
  const routes: readonly SimRoute[] = [
    ...createInfluencerRoutes(model, { drift: options.drift, inconsistent: options.inconsistent }),
    ...hooks.routes,
  ];
  const stats = new StatsCounter();
  const bucket = options.rateLimit
    ? new TokenBucket(options.rateLimit.rps, options.rateLimit.burst)
    : undefined;
  const announce = options.rateLimit?.announce !== false;
  const log = new RequestLog();
  let requestNumber = 0;
  const snapshot = (): SimStats => ({
    ...stats.snapshot(),
    hooks: hooks.stats(),
    now: clock.now().toISOString(),
  });

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
    const arrivedAt = performance.timeOrigin + performance.now();
    const finish = (response: SimResponse, fault?: Fault) => {
      stats.record(endpoint, response.status, fault);
      log.add({ at: arrivedAt, endpoint, status: response.status });
      // The RateLimit headers go on every API answer while the limit is on, 401/404 included.
      if (bucket && announce && !res.hasHeader('RateLimit-Limit')) {
        res.setHeader('RateLimit-Limit', String(options.rateLimit!.rps));
        res.setHeader('RateLimit-Remaining', String(bucket.remaining()));
        res.setHeader('RateLimit-Reset', String(bucket.resetAt()));
      }
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
      if (announce) {
        res.setHeader('RateLimit-Limit', String(options.rateLimit!.rps));
        res.setHeader('RateLimit-Reset', String(bucket.resetAt()));
        res.setHeader('RateLimit-Remaining', taken.ok ? String(taken.remaining) : '0');
      }
      if (!taken.ok) return finish(tooMany(taken.waitMs));
    }
    const n = requestNumber++;
    const fault = pickFault(options.seed, n, options.faults);
    if (fault === 'overload') return finish(tooMany(overloadWait(options.seed, n, options.faults)), fault);
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
    const pems = await selfSignedLoopbackCert();
    ca = pems.cert;
    server = createHttpsServer({ key: pems.key, cert: pems.cert }, handler);
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
    stats: snapshot,
    requestLog: () => log.list(),
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
