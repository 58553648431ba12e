/**
 * The API simulator: a local HTTP(S) server behaving like the remote API exactly as
 * api-profile.md fixes it. Tests, benchmarks and the demo run against it.
 *
 * Keys (header `apikey`): DEFAULT_KEYS below; 401 for a missing or unknown key, 403 for a
 * key not entitled to a route's area. Introspection under /__sim/ needs no key and is never
 * rate limited or faulted.
 */
import { createServer as createHttpServer, type RequestListener, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { FaultOptions } from './faults.js';
import type { RetryAfterFormat } from './format-retry-after.js';
import { createHookService, type HookService } from './hooks/hook-service.js';
import { createInfluencerRoutes } from './influencer-routes.js';
import { SimModel } from './model/sim-model.js';
import type { SimSize } from './model/sim-size.js';
import { type LoggedRequest, RequestLog } from './request-log.js';
import { SimClock } from './sim-clock.js';
import { type SimParts, SimResponder } from './sim-responder.js';
import { type SimStatsSnapshot, SimStats as StatsCounter } from './sim-stats.js';
import { type SimulatorInput, type SimulatorOptions, simulatorOptions } from './simulator-options.js';
import { TokenBucket } from './token-bucket.js';

export type { ViewFilter } from './model/sim-model.js';
export { DEFAULT_KEYS, type SimulatorInput, type SimulatorOptions } from './simulator-options.js';
export type { FaultOptions, HookService, RetryAfterFormat, SimModel, SimSize };

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

/** Starts the simulator: its options completed, its model and services built, its server listening. */
export async function startSimulator(partial: SimulatorInput = {}): Promise<RunningSimulator> {
  const options = simulatorOptions(partial);
  const model = new SimModel(options.seed, options.size, options.history);
  const sim = simParts(options, model);
  const { server, ca } = await createSimServer(options, new SimResponder(options, sim).handle);
  await listen(server, options);
  const port = (server.address() as AddressInfo).port;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  return {
    url: `${options.tls ? 'https' : 'http'}://${host}:${port}`,
    port,
    ...(ca ? { ca } : {}),
    clock: sim.clock,
    model,
    hooks: sim.hooks,
    stats: () => ({ ...sim.stats.snapshot(), hooks: sim.hooks.stats(), now: sim.clock.now().toISOString() }),
    requestLog: () => sim.log.list(),
    close: async () => {
      await sim.hooks.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The simulated clock, the hook service, the routes of both areas, the counters and the rate limit. */
function simParts(options: SimulatorOptions, model: SimModel): SimParts {
  const clock = new SimClock(options.startTime ?? new Date());
  const hooks = createHookService({ ...options.hooks, seed: options.seed, now: () => clock.now() });
  const routes = [
    ...createInfluencerRoutes(model, { drift: options.drift, inconsistent: options.inconsistent }),
    ...hooks.routes,
  ];
  const bucket = options.rateLimit
    ? new TokenBucket(options.rateLimit.rps, options.rateLimit.burst)
    : undefined;
  return {
    clock,
    hooks,
    routes,
    stats: new StatsCounter(),
    log: new RequestLog(),
    ...(bucket ? { bucket } : {}),
  };
}

/** An http server, or https with a fresh self-signed loopback certificate (its PEM returned as `ca`). */
async function createSimServer(
  options: SimulatorOptions,
  handler: RequestListener,
): Promise<{ server: Server; ca?: string }> {
  if (!options.tls) return { server: withKeepAlive(createHttpServer(handler)) };
  const { selfSignedLoopbackCert } = await import('./self-signed-cert.js');
  const pems = await selfSignedLoopbackCert();
  return {
    server: withKeepAlive(createHttpsServer({ key: pems.key, cert: pems.cert }, handler)),
    ca: pems.cert,
  };
}

function withKeepAlive(server: Server): Server {
  server.keepAliveTimeout = 30_000;
  return server;
}

function listen(server: Server, options: SimulatorOptions): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
}
