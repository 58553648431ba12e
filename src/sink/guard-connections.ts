import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { TimeoutPhase } from './sink-metrics.js';

/**
 * How often Node looks for connections past the headers or request timeout. Node checks only
 * every 30 s by default, so a 10 s headers timeout would close a trickling connection after up
 * to 40 s. Every 250 ms costs one walk over the connections receiving a request (not the idle
 * ones), and splits the closing of many slow connections into smaller batches.
 */
export const CONNECTIONS_CHECKING_INTERVAL_MS = 250;

/**
 * The kernel's queue of connections not yet accepted (capped by net.core.somaxconn, 4096 on
 * current Linux). Node's default, 511, overflows when thousands of connections arrive at once
 * (a flood, or every slow connection closed by one timeout check reconnecting): the kernel then
 * drops new connections' SYNs, and a genuine sender waits 1 s, then 3 s, for its retransmits.
 * Queued, they are accepted within milliseconds, then served or refused by the connection cap.
 */
export const LISTEN_BACKLOG = 4_096;

export interface ConnectionLimits {
  readonly headersTimeoutMs: number;
  readonly requestTimeoutMs: number;
  readonly keepAliveTimeoutMs: number;
  readonly maxConnections: number;
}

export interface ConnectionEvents {
  /** A connection was closed (408) because its request did not arrive in time. */
  timedOut(phase: TimeoutPhase): void;
  /** A connection was closed as soon as accepted: the cap was reached. */
  refused(): void;
}

/** The node:http server options for these limits (some are read only when the server is created or starts listening). */
export function serverOptions(limits: ConnectionLimits) {
  return {
    headersTimeout: limits.headersTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    connectionsCheckingInterval: CONNECTIONS_CHECKING_INTERVAL_MS,
  };
}

/**
 * Applies the connection cap to `server` (created with serverOptions) and reports the
 * connections it drops or times out. Node answers a timeout itself only when nobody listens to
 * 'clientError'; listening to count them, this answers every client error as Node would.
 * Returns the number of connections open now.
 */
export function guardConnections(
  server: Server,
  limits: ConnectionLimits,
  events: ConnectionEvents,
): { openConnections(): number } {
  // Node's own count and 'drop' event: a connection over the cap is destroyed as soon as accepted.
  server.maxConnections = limits.maxConnections > 0 ? limits.maxConnections : Number.POSITIVE_INFINITY;
  server.on('drop', () => events.refused());
  let open = 0;
  server.on('connection', (socket: Socket) => {
    open += 1;
    socket.once('close', () => {
      open -= 1;
    });
  });
  // Sockets whose current request's head has arrived: a timeout there is the request (body) timeout.
  const receiving = new WeakSet<Socket>();
  const started = (req: IncomingMessage, res: ServerResponse): void => {
    const socket = req.socket;
    receiving.add(socket);
    res.once('close', () => receiving.delete(socket));
  };
  server.on('request', started);
  server.on('checkContinue', started);
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT')
      events.timedOut(receiving.has(socket) ? 'body' : 'headers');
    // What Node does without a listener: answer if nothing was written on this connection yet.
    if (error.code !== 'ECONNRESET' && socket.writable && socket.bytesWritten === 0)
      socket.write(clientErrorResponse(error.code));
    socket.destroy();
  });
  return { openConnections: () => open };
}

function clientErrorResponse(code: string | undefined): string {
  const [status, reason] =
    code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? [408, 'Request Timeout']
      : code === 'HPE_HEADER_OVERFLOW'
        ? [431, 'Request Header Fields Too Large']
        : [400, 'Bad Request'];
  return `HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\n\r\n`;
}
