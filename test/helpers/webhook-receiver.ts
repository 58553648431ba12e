/**
 * A webhook (and heartbeat) receiver on loopback for the notification tests: records every
 * POST (path, content type, body). `mode` 'hang' accepts the request and never answers;
 * `refusingUrl()` is a loopback port nothing listens on.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { NotifyMessage } from '../../src/notify/notify-event.js';

export interface Received {
  readonly path: string;
  readonly contentType: string;
  readonly body: string;
}

export interface WebhookReceiver {
  readonly url: string;
  readonly received: Received[];
  /** The json-format messages received on `path` (default: every path). */
  messages(path?: string): NotifyMessage[];
  /** Resolves once `count` requests have arrived (rejects after `ms`). */
  waitFor(count: number, ms?: number): Promise<void>;
  close(): Promise<void>;
}

export async function startWebhookReceiver(mode: 'ok' | 'hang' | 'fail' = 'ok'): Promise<WebhookReceiver> {
  const received: Received[] = [];
  const waiters: { count: number; resolve: () => void }[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({
        path: req.url ?? '/',
        contentType: req.headers['content-type'] ?? '',
        body: Buffer.concat(chunks).toString('utf8'),
      });
      for (const w of [...waiters])
        if (received.length >= w.count) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve();
        }
      if (mode === 'hang') return;
      res.statusCode = mode === 'fail' ? 500 : 200;
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    messages: (path) =>
      received
        .filter(
          (r) => (path === undefined || r.path === path) && r.contentType.startsWith('application/json'),
        )
        .map((r) => JSON.parse(r.body) as NotifyMessage),
    waitFor: (count, ms = 20_000) =>
      new Promise<void>((resolve, reject) => {
        if (received.length >= count) return resolve();
        const timer = setTimeout(
          () => reject(new Error(`webhook receiver: ${received.length} of ${count} requests after ${ms} ms`)),
          ms,
        );
        waiters.push({
          count,
          resolve: () => {
            clearTimeout(timer);
            resolve();
          },
        });
      }),
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/** A loopback URL whose port refuses connections (it was free a moment ago). */
export async function refusingUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}/hook/token-refused`;
}
