import type { IncomingMessage, ServerResponse } from 'node:http';
import { headerOf } from '../util/header-of.js';
import type { Logger } from '../util/logger.js';
import { countDocuments } from './count-documents.js';
import type { HookRegistry } from './hook-registry.js';
import type { InboxWriter } from './inbox-writer.js';
import { readBody } from './read-body.js';
import type { DeliveryOutcome, SinkMetrics } from './sink-metrics.js';
import { verifySignature } from './verify-signature.js';

export interface DeliveryContext {
  readonly registry: HookRegistry;
  readonly writer: InboxWriter;
  readonly metrics: SinkMetrics;
  readonly bodyLimitBytes: number;
  readonly logger: Logger;
}

const JSON_CONTENT_TYPE = /^application\/json\s*(;.*)?$/i;

/**
 * One push to `/hooks/<token>`. The checks run in this order, cheapest and safest first, and
 * nothing is parsed before the signature is verified:
 * 405 wrong method, 404 unknown (or deleted) hook, 415 not JSON, 413 over the body limit,
 * 401 missing or bad signature (the strongest present: verify-signature.ts), 400 invalid JSON or no `documents` array,
 * then 200 once the inbox commit is durable, or 503 when it cannot commit (the sender retries).
 */
export async function handleDelivery(
  req: IncomingMessage,
  res: ServerResponse,
  token: string,
  ctx: DeliveryContext,
): Promise<void> {
  const started = performance.now();
  const seconds = (): number => (performance.now() - started) / 1000;
  const refuse = (status: number, outcome: DeliveryOutcome, message: string): void => {
    reply(res, status, { error: message });
    ctx.metrics.delivery(outcome, seconds());
  };
  if (req.method !== 'POST') {
    res.setHeader('Allow', 'POST');
    return refuse(405, 'method_not_allowed', 'only POST is accepted on a hook path');
  }
  const hook = ctx.registry.byPathToken(token);
  if (!hook) return refuse(404, 'unknown_hook', 'no such hook');
  if (!JSON_CONTENT_TYPE.test(req.headers['content-type'] ?? '')) {
    return refuse(415, 'not_json', 'Content-Type must be application/json');
  }
  const body = await readBody(req, ctx.bodyLimitBytes);
  if (body === 'too_large') {
    // Stop reading: close the connection once the answer is out instead of draining the rest.
    res.setHeader('Connection', 'close');
    res.once('finish', () => req.socket.destroySoon());
    return refuse(413, 'too_large', `body over the limit of ${ctx.bodyLimitBytes} bytes`);
  }
  const sha1 = headerOf(req, 'x-hub-signature');
  const sha256 = headerOf(req, 'x-hub-signature-256');
  if (!verifySignature(hook.secret, body, sha1, sha256)) {
    return refuse(
      401,
      'bad_signature',
      'missing or invalid signature (X-Hub-Signature-256, or X-Hub-Signature without it)',
    );
  }
  const documents = countDocuments(body);
  if (documents === 'invalid_json') return refuse(400, 'invalid_json', 'body is not valid JSON');
  if (documents === 'no_documents') return refuse(400, 'no_documents', 'body has no "documents" array');
  let deliveryId: number;
  try {
    deliveryId = await ctx.writer.append({
      hookId: hook.hookId,
      receivedAt: new Date().toISOString(),
      body,
      documents,
    });
  } catch (error) {
    ctx.logger.error({ err: (error as Error).message, hookId: hook.hookId }, 'sink: inbox commit failed');
    return refuse(503, 'inbox_unavailable', 'cannot store the delivery now; retry later');
  }
  reply(res, 200, { status: 'accepted', delivery_id: deliveryId });
  ctx.metrics.delivery('accepted', seconds(), documents);
}

export function reply(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
}
