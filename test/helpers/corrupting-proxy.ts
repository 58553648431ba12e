/**
 * A loopback HTTP proxy in front of an API (the simulator) that rewrites the text of its
 * replies: a test's way to serve a real sync's worth of records with a few bad values in
 * them (a lone surrogate in a name, a stats key, a nested field) without rewriting the
 * simulator. Request headers pass through (the API key included), and the reply's status;
 * the body is read whole, rewritten and sent with its new length and the reply's other headers.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Rewrites one reply's body text; `path` is the request's path without the query. */
export type Rewrite = (path: string, body: string) => string;

/** Headers that describe the body as it came, not as it is sent. */
const PER_BODY = new Set(['content-length', 'content-encoding', 'transfer-encoding', 'connection']);

export interface CorruptingProxy {
  readonly url: string;
  close(): Promise<void>;
}

export async function startCorruptingProxy(target: string, rewrite: Rewrite): Promise<CorruptingProxy> {
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', target);
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers))
      if (typeof value === 'string' && name !== 'host' && name !== 'accept-encoding')
        headers.set(name, value);
    const reply = await fetch(url, { method: req.method ?? 'GET', headers });
    const body = Buffer.from(rewrite(url.pathname, await reply.text()), 'utf8');
    const replyHeaders: Record<string, string> = {};
    reply.headers.forEach((value, name) => {
      if (!PER_BODY.has(name)) replyHeaders[name] = value;
    });
    res.writeHead(reply.status, { ...replyHeaders, 'content-length': String(body.length) });
    res.end(body);
  };
  const server = createServer((req, res) => {
    handle(req, res).catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
