/**
 * Writes a SimResponse as JSON, applying a fault (faults.ts) to the way it is sent: slow
 * (delayed by slowMs), invalid JSON (half a body then HTML), reset (the socket destroyed
 * mid-body) or truncated (Content-Length says more than is sent, then the connection ends).
 */
import type { ServerResponse } from 'node:http';
import type { Fault } from './faults.js';
import type { SimResponse } from './route.js';

export function send(res: ServerResponse, response: SimResponse): void {
  sendWithFault(res, response, undefined, 0);
}

export function sendWithFault(
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
