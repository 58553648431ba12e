/**
 * A loopback HTTP proxy in front of an S3 server (moto) that fails requests as a struggling
 * store does: 503 SlowDown (S3's throttling reply) or a connection reset before the request
 * reaches the store, or a lost response (the request reaches the store, which acts on it, and
 * the client's connection is reset instead of the reply). `fault(n, request)` decides for the
 * n-th request (from 1); the rest pass through, headers and bodies as they are (moto does not
 * check the signature's host).
 */
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Fault = 'pass' | 'slowdown' | 'reset' | 'lose-response';

/** What a fault policy sees of a request. */
export interface ProxiedRequest {
  readonly method: string;
  /** The path and query: `/<bucket>/<key>?…` (path-style). */
  readonly path: string;
}

export type FaultPolicy = (n: number, request: ProxiedRequest) => Fault;

export interface FaultProxy {
  readonly url: string;
  /** Requests seen, and how many of each fault were injected. */
  readonly counts: { requests: number; slowdown: number; reset: number; lost: number };
  /** Changes the policy for the requests to come. */
  setFault(fault: FaultPolicy): void;
  close(): Promise<void>;
}

const SLOW_DOWN =
  '<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>SlowDown</Code>' +
  '<Message>Please reduce your request rate.</Message><RequestId>FAULT</RequestId></Error>';

export async function startFaultProxy(target: string, initial: FaultPolicy): Promise<FaultProxy> {
  const upstream = new URL(target);
  let fault = initial;
  const counts = { requests: 0, slowdown: 0, reset: 0, lost: 0 };
  const server = createServer((req, res) => {
    counts.requests += 1;
    const decided = fault(counts.requests, { method: req.method ?? 'GET', path: req.url ?? '/' });
    if (decided === 'reset') {
      counts.reset += 1;
      req.socket.resetAndDestroy();
      return;
    }
    if (decided === 'slowdown') {
      counts.slowdown += 1;
      req.resume();
      req.once('end', () => {
        res.writeHead(503, {
          'content-type': 'application/xml',
          'content-length': Buffer.byteLength(SLOW_DOWN),
        });
        res.end(SLOW_DOWN);
      });
      return;
    }
    const forward = request(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: req.url,
        headers: req.headers,
      },
      (reply) => {
        if (decided === 'lose-response') {
          // The store has acted on the request; its reply never reaches the client.
          reply.resume();
          reply.once('end', () => {
            counts.lost += 1;
            req.socket.resetAndDestroy();
          });
          return;
        }
        res.writeHead(reply.statusCode ?? 502, reply.headers);
        reply.pipe(res);
      },
    );
    forward.once('error', () => res.destroy());
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    counts,
    setFault: (next) => {
      fault = next;
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
