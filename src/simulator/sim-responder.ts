/**
 * The simulator's HTTP core: every request read whole, then either introspection (/__sim/,
 * no key, never limited or faulted) or an API route behind the key check, the entitlement
 * check, the rate limit and the seeded faults, in that order.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { errorResponse } from './error-response.js';
import { type Fault, overloadWait, pickFault } from './faults.js';
import { formatRetryAfter } from './format-retry-after.js';
import type { HookService } from './hooks/hook-service.js';
import type { RequestLog } from './request-log.js';
import type { SimRequest, SimResponse, SimRoute } from './route.js';
import { send, sendWithFault } from './send-response.js';
import type { SimClock } from './sim-clock.js';
import type { SimStats } from './sim-stats.js';
import type { SimulatorOptions } from './simulator-options.js';
import type { TokenBucket } from './token-bucket.js';

export interface SimParts {
  readonly clock: SimClock;
  readonly hooks: HookService;
  readonly routes: readonly SimRoute[];
  readonly stats: SimStats;
  readonly log: RequestLog;
  /** The rate limit's bucket, when there is one. */
  readonly bucket?: TokenBucket;
}

export class SimResponder {
  /** Numbers the API requests: the seeded faults are drawn per request number. */
  #requestNumber = 0;
  readonly #announce: boolean;

  constructor(
    private readonly options: SimulatorOptions,
    private readonly sim: SimParts,
  ) {
    this.#announce = options.rateLimit?.announce !== false;
  }

  /** The node:http request listener. */
  readonly handle = (req: IncomingMessage, res: ServerResponse): void => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://sim');
      const requestId = randomUUID();
      res.setHeader('X-Request-Id', requestId);
      if (url.pathname.startsWith('/__sim/')) {
        send(res, this.introspect(req.method ?? 'GET', url.pathname, Buffer.concat(chunks)));
        return;
      }
      const simReq: SimRequest = {
        method: req.method ?? 'GET',
        path: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        body: Buffer.concat(chunks),
        requestId,
        now: this.sim.clock.now(),
      };
      void this.answer(simReq, res).catch((error: unknown) => {
        send(res, errorResponse(500, 'server_error', 'Internal error', String(error)));
      });
    });
  };

  private async answer(req: SimRequest, res: ServerResponse): Promise<void> {
    const matches = this.sim.routes.filter((r) => r.pattern.test(req.path));
    const route = matches.find((r) => r.method === req.method);
    const endpoint = route ? `${route.method} ${endpointName(route.pattern)}` : `${req.method} (unknown)`;
    const arrivedAt = performance.timeOrigin + performance.now();
    const finish = (response: SimResponse, fault?: Fault) =>
      this.finish(res, endpoint, arrivedAt, response, fault);
    if (!route) {
      const status = matches.length ? 405 : 404;
      const code = status === 405 ? 'method_not_allowed' : 'not_found';
      return finish(errorResponse(status, code, 'No route', `${req.method} ${req.path}`));
    }
    const refusal = this.refusal(req, route, res);
    if (refusal) return finish(refusal);
    const n = this.#requestNumber++;
    const { seed, faults } = this.options;
    const fault = pickFault(seed, n, faults);
    if (fault === 'overload') return finish(this.tooMany(overloadWait(seed, n, faults)), fault);
    if (fault === '500')
      return finish(errorResponse(500, 'server_error', 'Internal error', 'simulated failure'), fault);
    if (fault === '503') return finish({ status: 503, body: { message: 'Service Unavailable' } }, fault);
    return finish(await route.handle(req, req.path.match(route.pattern)!.slice(1)), fault);
  }

  /** 401 without a known key, 403 outside the key's areas, 429 past the rate limit; else undefined. */
  private refusal(req: SimRequest, route: SimRoute, res: ServerResponse): SimResponse | undefined {
    const key = req.headers.apikey;
    const areas = typeof key === 'string' ? this.options.keys[key] : undefined;
    if (!areas) return errorResponse(401, 'unauthorized', 'Unauthorized', 'invalid or expired token');
    if (!areas.includes(route.area))
      return errorResponse(403, 'forbidden', 'Forbidden', `not entitled to the ${route.area} service`);
    const { bucket } = this.sim;
    if (!bucket) return undefined;
    const taken = bucket.take();
    if (this.#announce) {
      res.setHeader('RateLimit-Limit', String(this.options.rateLimit!.rps));
      res.setHeader('RateLimit-Reset', String(bucket.resetAt()));
      res.setHeader('RateLimit-Remaining', taken.ok ? String(taken.remaining) : '0');
    }
    return taken.ok ? undefined : this.tooMany(taken.waitMs);
  }

  private finish(
    res: ServerResponse,
    endpoint: string,
    arrivedAt: number,
    response: SimResponse,
    fault?: Fault,
  ): void {
    this.sim.stats.record(endpoint, response.status, fault);
    this.sim.log.add({ at: arrivedAt, endpoint, status: response.status });
    // The RateLimit headers go on every API answer while the limit is on, 401/404 included.
    const { bucket } = this.sim;
    if (bucket && this.#announce && !res.hasHeader('RateLimit-Limit')) {
      res.setHeader('RateLimit-Limit', String(this.options.rateLimit!.rps));
      res.setHeader('RateLimit-Remaining', String(bucket.remaining()));
      res.setHeader('RateLimit-Reset', String(bucket.resetAt()));
    }
    sendWithFault(res, response, fault, this.options.faults.slowMs);
  }

  private tooMany(waitMs: number): SimResponse {
    return {
      status: 429,
      headers: { 'Retry-After': formatRetryAfter(this.options.retryAfterFormat, waitMs) },
      body: { message: 'Service Overloaded', errors: {} },
    };
  }

  /** GET /__sim/stats; POST /__sim/clock {"now": ISO} or {"advanceMs": n}. */
  private introspect(method: string, path: string, body: Buffer): SimResponse {
    const { stats, hooks, clock } = this.sim;
    if (path === '/__sim/stats' && method === 'GET') {
      return {
        status: 200,
        body: { ...stats.snapshot(), hooks: hooks.stats(), now: clock.now().toISOString() },
      };
    }
    if (path === '/__sim/clock' && method === 'POST') return this.setClock(body);
    return errorResponse(404, 'not_found', 'Not found', `no ${method} ${path}`);
  }

  private setClock(body: Buffer): SimResponse {
    const { clock } = this.sim;
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
}

/** `^\/v3\/hooks\/([^/]+)$` → `/v3/hooks/{id}`: readable keys for the per-endpoint counters. */
function endpointName(pattern: RegExp): string {
  return pattern.source.replace(/\(\[\^\/\]\+\)/g, '{id}').replace(/[\^$\\?]/g, '');
}
