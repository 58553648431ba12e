/**
 * The sink's HTTP side: `POST /hooks/<path_token>` (handle-delivery.ts), `GET /healthz` and
 * `GET /metrics`, the connection guard, and the requests in flight, which a close lets finish.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from '../util/logger.js';
import { guardConnections, LISTEN_BACKLOG, serverOptions } from './guard-connections.js';
import { type DeliveryContext, handleDelivery, reply } from './handle-delivery.js';
import { parseHookPath } from './hook-path.js';
import type { ResolvedSinkOptions } from './sink-options.js';
import type { SinkParts } from './sink-parts.js';

export interface SinkServer {
  readonly server: Server;
  openConnections(): number;
  /** Listens on the options' host and port; resolves with the port (the one chosen, for port 0). */
  listen(): Promise<number>;
  /**
   * Stops accepting connections, lets the requests in flight finish (their commits included),
   * then closes every connection; /healthz says "closing" meanwhile.
   */
  close(): Promise<void>;
}

export function createSinkServer(o: ResolvedSinkOptions, parts: SinkParts, logger: Logger): SinkServer {
  const delivery = deliveryContext(o, parts, logger);
  let inFlight = 0;
  let closing = false;
  let drained: (() => void) | undefined;
  const onRequest = (req: IncomingMessage, res: ServerResponse): void => {
    inFlight += 1;
    if (closing) res.setHeader('Connection', 'close');
    route(req, res, parts, delivery, closing)
      .catch((error: Error) => {
        parts.metrics.requestFailed();
        logger.error({ err: error.message, path: req.url }, 'sink: request failed');
        if (!res.headersSent) reply(res, 500, { error: 'internal error' });
        else res.destroy();
      })
      .finally(() => {
        inFlight -= 1;
        if (inFlight === 0) drained?.();
      });
  };
  const server = createServer(serverOptions(o), onRequest);
  // A sender waiting on Expect: 100-continue is told to go on only once its body has room (handle-delivery.ts).
  server.on('checkContinue', onRequest);
  const connections = guardConnections(server, o, {
    timedOut: (phase) => {
      parts.metrics.timedOut(phase);
      parts.notice.note(`${phase}_timeout`);
    },
    refused: () => {
      parts.metrics.connectionRefused();
      parts.notice.note('connection_cap');
    },
  });
  const close = async (): Promise<void> => {
    closing = true;
    const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    if (inFlight > 0) await new Promise<void>((resolve) => (drained = resolve));
    server.closeAllConnections();
    await stopped;
  };
  return {
    server,
    openConnections: () => connections.openConnections(),
    listen: () => listen(server, o),
    close,
  };
}

function deliveryContext(o: ResolvedSinkOptions, parts: SinkParts, logger: Logger): DeliveryContext {
  return {
    registry: parts.registry,
    writer: parts.writer,
    metrics: parts.metrics,
    bodyLimitBytes: o.bodyLimitBytes,
    bodyDepthLimit: o.bodyDepthLimit,
    budget: parts.budget,
    onOverBudget: () => parts.notice.note('over_budget'),
    logger,
  };
}

async function route(
  req: IncomingMessage,
  res: ServerResponse,
  parts: SinkParts,
  delivery: DeliveryContext,
  closing: boolean,
): Promise<void> {
  const path = (req.url ?? '/').split('?', 1)[0] as string;
  const token = parseHookPath(path);
  if (token !== undefined) return handleDelivery(req, res, token, delivery);
  if (path === '/healthz' && req.method === 'GET') {
    return reply(res, 200, {
      status: closing ? 'closing' : 'ok',
      backlog: parts.progress.backlog(),
      quarantined: parts.progress.quarantined(),
      publish_lag_seconds: parts.progress.publishLagSeconds(),
      last_publish_at: parts.progress.lastPublishAt(),
    });
  }
  if (path === '/metrics' && req.method === 'GET') {
    const text = await parts.metrics.scrape();
    res.writeHead(200, { 'Content-Type': parts.metrics.registry.contentType });
    res.end(text);
    return;
  }
  reply(res, 404, { error: 'not found' });
}

async function listen(server: Server, o: ResolvedSinkOptions): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port: o.port, host: o.host, backlog: LISTEN_BACKLOG }, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return (server.address() as AddressInfo).port;
}
