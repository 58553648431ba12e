import type { IncomingMessage } from 'node:http';

/** A request header's value, the first one when it was sent more than once. */
export function headerValue(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}
