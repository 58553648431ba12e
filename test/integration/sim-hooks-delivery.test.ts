/**
 * The delivery engine against loopback receivers: redelivery of the same bytes after a
 * failure, duplicates, timeouts, connection errors, HALTED, deletion with pending retries,
 * HTTPS with a caller-supplied CA, and close().
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { generate } from 'selfsigned';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createHookService,
  type HookService,
  type HookServiceOptions,
} from '../../src/simulator/hooks/hook-service.js';
import { signBody } from '../../src/simulator/hooks/sign-body.js';
import {
  callRoute,
  parsePush,
  type Receiver,
  type Responder,
  sleep,
  startReceiver,
} from '../helpers/sim-hooks-server.js';

const SECRET = 'delivery-secret-abcdefgh';

const services: HookService[] = [];
const receivers: Receiver[] = [];

afterEach(async () => {
  await Promise.all(services.splice(0).map((s) => s.close()));
  await Promise.all(receivers.splice(0).map((r) => r.close()));
});

function service(options: Partial<HookServiceOptions> = {}): HookService {
  const created = createHookService({
    seed: 11,
    now: () => new Date(),
    deliveriesPerSecond: 10,
    documentsPerDelivery: 3,
    retryBaseMs: 50,
    deliveryTimeoutMs: 2_000,
    duplicateRate: 0,
    ...options,
  });
  services.push(created);
  return created;
}

async function receiver(respond?: Responder, tls?: { key: string; cert: string }): Promise<Receiver> {
  const started = await startReceiver({ ...(respond ? { respond } : {}), ...(tls ? { tls } : {}) });
  receivers.push(started);
  return started;
}

async function createHook(svc: HookService, targetUrl: string, searchId = 101): Promise<string> {
  const response = await callRoute(svc.routes, 'POST', '/v3/hooks', {
    body: { target_url: targetUrl, search_id: searchId },
    headers: { 'x-hook-secret': SECRET },
  });
  expect(response.status).toBe(201);
  return (response.body as { hook_id: string }).hook_id;
}

async function hookStatus(svc: HookService, hookId: string): Promise<string> {
  const response = await callRoute(svc.routes, 'GET', `/v3/hooks/${hookId}`);
  return (response.body as { hook: { status: string } }).hook.status;
}

async function until(condition: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await sleep(20);
  }
}

describe('delivery engine', () => {
  it('redelivers the byte-identical body after a 500, then records 500 and 200 for that delivery', async () => {
    const sink = await receiver((index) => (index === 0 ? 500 : 200));
    const svc = service({ deliveriesPerSecond: 1 });
    const hookId = await createHook(svc, sink.url);
    await until(() => sink.received.slice(1).some((p) => p.body.equals(sink.received[0]!.body)));

    const first = sink.received[0]!;
    const again = sink.received.slice(1).find((p) => p.body.equals(first.body))!;
    expect(again.headers['x-hub-signature']).toBe(first.headers['x-hub-signature']);
    expect(signBody(SECRET, again.body).sha1).toBe(again.headers['x-hub-signature']);

    const ids = parsePush(first).documents.map((d) => d.id);
    // The receiver has the body before the sender has recorded the answer: wait for the record.
    await until(() => svc.attempts().some((a) => a.hookId === hookId && a.attempt === 2));
    const attempts = svc.attempts().filter((a) => a.hookId === hookId && a.attempt <= 2);
    const key = attempts[0]!.deliveryKey;
    expect(attempts.filter((a) => a.deliveryKey === key)).toEqual([
      { hookId, deliveryKey: key, attempt: 1, status: 500, documentIds: ids, at: expect.any(String) },
      { hookId, deliveryKey: key, attempt: 2, status: 200, documentIds: ids, at: expect.any(String) },
    ]);
    expect(svc.stats()).toMatchObject({ failed: 1, retried: 1 });
    expect(await hookStatus(svc, hookId)).toBe('ACTIVE');
  });

  it('sends every acknowledged body once more when duplicateRate is 1', async () => {
    const sink = await receiver();
    const svc = service({ duplicateRate: 1 });
    const hookId = await createHook(svc, sink.url);
    await until(() => (svc.stats().duplicatesSent ?? 0) >= 2);
    const duplicate = svc.attempts().find((a) => a.attempt === 2)!;
    const original = svc.attempts().find((a) => a.deliveryKey === duplicate.deliveryKey && a.attempt === 1)!;
    expect(original).toMatchObject({ hookId, status: 200 });
    expect(duplicate).toMatchObject({ hookId, status: 200, documentIds: original.documentIds });
    const bodies = sink.received.map((p) => p.body.toString('utf8'));
    const withIds = bodies.filter((b) => b.includes(`"id":"${original.documentIds[0]}"`));
    expect(withIds).toHaveLength(2);
    expect(withIds[0]).toBe(withIds[1]);
  });

  it('records a receiver that never answers as a timeout, and keeps retrying it', async () => {
    const sink = await receiver(() => 'hang');
    const svc = service({ deliveriesPerSecond: 2, deliveryTimeoutMs: 150 });
    await createHook(svc, sink.url);
    await until(() => svc.attempts().some((a) => a.attempt > 1));
    const attempts = svc.attempts();
    expect(attempts.every((a) => a.status === 'timeout')).toBe(true);
    const retried = attempts.find((a) => a.attempt === 2)!;
    // The redelivery carries the same documents as the first attempt of that delivery.
    expect(
      attempts.find((a) => a.deliveryKey === retried.deliveryKey && a.attempt === 1)?.documentIds,
    ).toEqual(retried.documentIds);
  });

  it('records a refused connection as an error', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const svc = service();
    await createHook(svc, `http://127.0.0.1:${port}/gone`);
    await until(() => svc.attempts().length >= 2);
    expect(svc.attempts()[0]).toMatchObject({ attempt: 1, status: 'error' });
  });

  it('turns a hook HALTED after haltAfterFailures consecutive failures, and stops sending', async () => {
    const sink = await receiver(() => 503);
    const svc = service({ deliveriesPerSecond: 5, haltAfterFailures: 4 });
    const hookId = await createHook(svc, sink.url);
    expect(await hookStatus(svc, hookId)).toBe('PENDING');
    await until(async () => (await hookStatus(svc, hookId)) === 'HALTED');
    await sleep(100);
    const seen = sink.received.length;
    expect(svc.stats().failed).toBeGreaterThanOrEqual(4);
    await sleep(500);
    expect(sink.received.length).toBe(seen);
    expect(svc.stats()).toMatchObject({ liveHooks: 1, deliveringHooks: 0, pendingRedeliveries: 0 });
  });

  it('deleting a hook drops its pending redeliveries too', async () => {
    const sink = await receiver(() => 500);
    const svc = service({ deliveriesPerSecond: 10, retryBaseMs: 150 });
    const hookId = await createHook(svc, sink.url);
    await until(() => (svc.stats().pendingRedeliveries ?? 0) >= 2);
    expect((await callRoute(svc.routes, 'DELETE', `/v3/hooks/${hookId}`)).status).toBe(204);
    expect(svc.stats().pendingRedeliveries).toBe(0);
    await sleep(100);
    const seen = sink.received.length;
    await sleep(600);
    expect(sink.received.length).toBe(seen);
  });

  it('delivers to an https target trusted through the ca option, and fails without it', async () => {
    const pems = await generate([{ name: 'commonName', value: '127.0.0.1' }], {
      keyType: 'ec',
      algorithm: 'sha256',
      extensions: [{ name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] }],
    });
    const sink = await receiver(undefined, { key: pems.private, cert: pems.cert });
    expect(sink.url.startsWith('https://127.0.0.1:')).toBe(true);
    const trusting = service({ ca: pems.cert });
    await createHook(trusting, `${sink.url}/tls`);
    await sink.waitFor(2);
    expect(trusting.attempts()[0]?.status).toBe(200);

    const untrusting = service();
    await createHook(untrusting, `${sink.url}/tls`);
    await until(() => untrusting.attempts().length >= 1);
    expect(untrusting.attempts()[0]?.status).toBe('error');
  });

  it('close() ends in-flight sends and timers; nothing is sent afterwards', async () => {
    const sink = await receiver(() => 'hang');
    const svc = service({ deliveryTimeoutMs: 30_000 });
    await createHook(svc, sink.url, 105);
    await sink.waitFor(2);
    expect(svc.stats().inFlight).toBeGreaterThanOrEqual(1);
    await svc.close();
    expect(svc.stats()).toMatchObject({ inFlight: 0, deliveringHooks: 0, pendingRedeliveries: 0 });
    const seen = sink.received.length;
    await sleep(300);
    expect(sink.received.length).toBe(seen);
  });
});
