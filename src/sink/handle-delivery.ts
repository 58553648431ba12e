import type { IncomingMessage, ServerResponse } from 'node:http';
import { headerOf } from '../util/header-of.js';
import { jsonDepthExceeds } from '../util/json-depth.js';
import type { Logger } from '../util/logger.js';
import type { BodyBudget, BodyClaim } from './body-budget.js';
import { countDocuments } from './count-documents.js';
import type { HookRegistry, RegisteredHook } from './hook-registry.js';
import type { InboxWriter } from './inbox-writer.js';
import { type BodyResult, declaredLength, readBody } from './read-body.js';
import type { DeliveryOutcome, SinkMetrics } from './sink-metrics.js';
import { hasSignatureHeader, verifySignature } from './verify-signature.js';

export interface DeliveryContext {
  readonly registry: HookRegistry;
  readonly writer: InboxWriter;
  readonly metrics: SinkMetrics;
  readonly bodyLimitBytes: number;
  /** The deepest nesting of arrays and objects a body may have (400 beyond). */
  readonly bodyDepthLimit: number;
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
 * room for a declared length (all of these before any body byte is read: see closeAfterAnswer), then
 * the body is read (413 / 503 when a chunked one crosses the limit / the budget), 401 bad
 * signature (the strongest present: verify-signature.ts), 400 nested deeper than the depth
 * limit (a single pass over the bytes, before anything parses or walks them), 400 invalid JSON
 * or no `documents` array, then 200 once the inbox commit is durable, or 503 when it cannot commit (the sender retries).
 */
export async function handleDelivery(
  req: IncomingMessage,
  res: ServerResponse,
  token: string,
  ctx: DeliveryContext,
): Promise<void> {
  const started = performance.now();
  const hook = routeToHook(req, res, token, ctx, started);
  if (hook === undefined) return;
  const declared = declaredLength(req);
  const sha1 = headerOf(req, 'x-hub-signature');
  const sha256 = headerOf(req, 'x-hub-signature-256');
  if (!headAcceptable(req, res, ctx, started, declared, sha1, sha256)) return;
  const claim = ctx.budget.claim();
  try {
    if (!admitBody(req, res, ctx, started, claim, declared)) return;
    const body = await readBody(req, ctx.bodyLimitBytes, claim, declared);
    if (!bodyReceived(req, res, ctx, started, body)) return;
    const documents = checkedDocuments(res, ctx, started, hook, body, sha1, sha256);
    if (documents === undefined) return;
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
      return refuse(
        res,
        ctx,
        started,
        503,
        'inbox_unavailable',
        'cannot store the delivery now; retry later',
      );
    }
    reply(res, 200, { status: 'accepted', delivery_id: deliveryId });
    ctx.metrics.delivery('accepted', secondsSince(started), documents);
  } finally {
    // The body is the inbox's now (or dropped): its bytes no longer count against the budget.
    claim.release();
  }
}

// The steps below take the request's parts as arguments, not a per-request object or closures:
// this is the sink's hot path, and they add no allocation or await of their own.

const OVER_BUDGET = 'the sink is receiving too many large bodies now; retry later';
const BAD_SIGNATURE = 'missing or invalid signature (X-Hub-Signature-256, or X-Hub-Signature without it)';

/** The hook a request is for, once its method, path and Content-Type are right (else 405, 404, 415). */
function routeToHook(
  req: IncomingMessage,
  res: ServerResponse,
  token: string,
  ctx: DeliveryContext,
  started: number,
): RegisteredHook | undefined {
  if (req.method !== 'POST') {
    res.setHeader('Allow', 'POST');
    return refuse(res, ctx, started, 405, 'method_not_allowed', 'only POST is accepted on a hook path');
  }
  const hook = ctx.registry.byPathToken(token);
  if (!hook) return refuse(res, ctx, started, 404, 'unknown_hook', 'no such hook');
  if (!JSON_CONTENT_TYPE.test(req.headers['content-type'] ?? '')) {
    return refuse(res, ctx, started, 415, 'not_json', 'Content-Type must be application/json');
  }
  return hook;
}

/** The head's checks before any body byte: a declared length within the limit (413), a signature header (401). */
function headAcceptable(
  req: IncomingMessage,
  res: ServerResponse,
  ctx: DeliveryContext,
  started: number,
  declared: number | undefined,
  sha1: string | undefined,
  sha256: string | undefined,
): boolean {
  if (declared !== undefined && declared > ctx.bodyLimitBytes) {
    closeAfterAnswer(req, res);
    refuse(res, ctx, started, 413, 'too_large', tooLarge(ctx));
    return false;
  }
  if (!hasSignatureHeader(sha1, sha256)) {
    closeAfterAnswer(req, res);
    refuse(res, ctx, started, 401, 'bad_signature', BAD_SIGNATURE);
    return false;
  }
  return true;
}

/** Room in the body budget for a declared length (else 503), then the go-ahead to a sender waiting on it. */
function admitBody(
  req: IncomingMessage,
  res: ServerResponse,
  ctx: DeliveryContext,
  started: number,
  claim: BodyClaim,
  declared: number | undefined,
): boolean {
  if (declared !== undefined && !claim.grow(declared)) {
    refuseOverBudget(req, res, ctx, started);
    return false;
  }
  // Only now, with room for the body, does a sender waiting on Expect: 100-continue send it.
  if (req.headers.expect?.toLowerCase() === '100-continue') res.writeContinue();
  return true;
}

/** Whether the whole body arrived; if not, the answer (413, 503) or, for a sender gone, none. */
function bodyReceived(
  req: IncomingMessage,
  res: ServerResponse,
  ctx: DeliveryContext,
  started: number,
  body: BodyResult,
): body is Buffer {
  if (body === 'aborted') {
    // The sender went away, or its connection timed out: nobody to answer.
    ctx.metrics.delivery('aborted', secondsSince(started));
  } else if (body === 'too_large') {
    closeAfterAnswer(req, res);
    refuse(res, ctx, started, 413, 'too_large', tooLarge(ctx));
  } else if (body === 'over_budget') {
    refuseOverBudget(req, res, ctx, started);
  } else {
    return true;
  }
  return false;
}

/**
 * The documents of a body whose signature verifies (else 401), nested no deeper than the limit
 * and holding a `documents` array (else 400).
 */
function checkedDocuments(
  res: ServerResponse,
  ctx: DeliveryContext,
  started: number,
  hook: RegisteredHook,
  body: Buffer,
  sha1: string | undefined,
  sha256: string | undefined,
): number | undefined {
  if (!verifySignature(hook.secret, body, sha1, sha256)) {
    return refuse(res, ctx, started, 401, 'bad_signature', BAD_SIGNATURE);
  }
  if (jsonDepthExceeds(body, ctx.bodyDepthLimit)) {
    return refuse(res, ctx, started, 400, 'too_deep', tooDeep(ctx));
  }
  const documents = countDocuments(body);
  if (documents === 'invalid_json') {
    return refuse(res, ctx, started, 400, 'invalid_json', 'body is not valid JSON');
  }
  if (documents === 'no_documents') {
    return refuse(res, ctx, started, 400, 'no_documents', 'body has no "documents" array');
  }
  return documents;
}

function secondsSince(started: number): number {
  return (performance.now() - started) / 1000;
}

function tooLarge(ctx: DeliveryContext): string {
  return `body over the limit of ${ctx.bodyLimitBytes} bytes`;
}

function tooDeep(ctx: DeliveryContext): string {
  return `body nests arrays and objects deeper than the limit of ${ctx.bodyDepthLimit} levels`;
}

/** Answers a refusal and counts it; returns undefined so that a step can `return refuse(...)`. */
function refuse(
  res: ServerResponse,
  ctx: DeliveryContext,
  started: number,
  status: number,
  outcome: DeliveryOutcome,
  message: string,
): undefined {
  reply(res, status, { error: message });
  ctx.metrics.delivery(outcome, secondsSince(started));
  return undefined;
}

/** For a refusal that leaves the body unread: close the connection once the answer is out rather than drain it. */
function closeAfterAnswer(req: IncomingMessage, res: ServerResponse): void {
  res.setHeader('Connection', 'close');
  res.once('finish', () => req.socket.destroySoon());
}

/** 503 + Retry-After: no room in the body budget now (the caller's onOverBudget counts and notes it). */
function refuseOverBudget(
  req: IncomingMessage,
  res: ServerResponse,
  ctx: DeliveryContext,
  started: number,
): void {
  ctx.onOverBudget();
  res.setHeader('Retry-After', String(OVER_BUDGET_RETRY_AFTER_SECONDS));
  closeAfterAnswer(req, res);
  refuse(res, ctx, started, 503, 'over_budget', OVER_BUDGET);
}

export function reply(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
}
