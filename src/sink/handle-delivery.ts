import type { IncomingMessage, ServerResponse } from 'node:http';
import { headerOf } from '../util/header-of.js';
import type { Logger } from '../util/logger.js';
import type { BodyBudget } from './body-budget.js';
import { countDocuments } from './count-documents.js';
import type { HookRegistry } from './hook-registry.js';
import type { InboxWriter } from './inbox-writer.js';
import { declaredLength, readBody } from './read-body.js';
import type { DeliveryOutcome, SinkMetrics } from './sink-metrics.js';
import { hasSignatureHeader, verifySignature } from './verify-signature.js';

export interface DeliveryContext {
  readonly registry: HookRegistry;
  readonly writer: InboxWriter;
  readonly metrics: SinkMetrics;
  readonly bodyLimitBytes: number;
  readonly budget: BodyBudget;
  /** Called once per request refused for the body budget (the caller counts and notes it). */
  readonly onOverBudget: () => void;
  readonly logger: Logger;
}

/**
 * Retry-After of a 503 for the body budget: a few seconds lets the bodies in flight finish
 * (a body at the limit arrives in well under that on a real link) without making a genuine
 * sender that met a burst wait long.
 */
export const OVER_BUDGET_RETRY_AFTER_SECONDS = 5;

const JSON_CONTENT_TYPE = /^application\/json\s*(;.*)?$/i;

/**
 * One push to `/hooks/<token>`. The checks run in this order, cheapest and safest first, and
 * nothing is parsed before the signature is verified:
 * 405 wrong method, 404 unknown (or deleted) hook, 415 not JSON, 413 a declared length over the
 * body limit, 401 no well-formed signature header, 503 + Retry-After when the body budget has no
 * room for a declared length (all of these before any body byte is read: see refuseUnread), then
 * the body is read (413 / 503 when a chunked one crosses the limit / the budget), 401 bad
 * signature (the strongest present: verify-signature.ts), 400 invalid JSON or no `documents`
 * array, then 200 once the inbox commit is durable, or 503 when it cannot commit (the sender retries).
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
  /** A refusal that leaves the body unread: close the connection once the answer is out rather than drain it. */
  const refuseUnread = (status: number, outcome: DeliveryOutcome, message: string): void => {
    res.setHeader('Connection', 'close');
    res.once('finish', () => req.socket.destroySoon());
    refuse(status, outcome, message);
  };
  const overBudget = (): void => {
    ctx.onOverBudget();
    res.setHeader('Retry-After', String(OVER_BUDGET_RETRY_AFTER_SECONDS));
    refuseUnread(503, 'over_budget', 'the sink is receiving too many large bodies now; retry later');
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
  const tooLarge = `body over the limit of ${ctx.bodyLimitBytes} bytes`;
  const declared = declaredLength(req);
  if (declared !== undefined && declared > ctx.bodyLimitBytes) {
    return refuseUnread(413, 'too_large', tooLarge);
  }
  const sha1 = headerOf(req, 'x-hub-signature');
  const sha256 = headerOf(req, 'x-hub-signature-256');
  const badSignature = 'missing or invalid signature (X-Hub-Signature-256, or X-Hub-Signature without it)';
  if (!hasSignatureHeader(sha1, sha256)) return refuseUnread(401, 'bad_signature', badSignature);
  const claim = ctx.budget.claim();
  try {
    if (declared !== undefined && !claim.grow(declared)) return overBudget();
    // Only now, with room for the body, does a sender waiting on Expect: 100-continue send it.
    if (req.headers.expect?.toLowerCase() === '100-continue') res.writeContinue();
    const body = await readBody(req, ctx.bodyLimitBytes, claim, declared);
    if (body === 'aborted') {
      // The sender went away, or its connection timed out: nobody to answer.
      ctx.metrics.delivery('aborted', seconds());
      return;
    }
    if (body === 'too_large') return refuseUnread(413, 'too_large', tooLarge);
    if (body === 'over_budget') return overBudget();
    if (!verifySignature(hook.secret, body, sha1, sha256)) return refuse(401, 'bad_signature', badSignature);
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
  } finally {
    // The body is the inbox's now (or dropped): its bytes no longer count against the budget.
    claim.release();
  }
}

export function reply(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
}
