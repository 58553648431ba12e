/**
 * Pushes signed batches of generated documents to every live hook's target_url.
 *
 * Contract (api-profile.md, "Pushed documents"): at-least-once and unordered. Each hook gets
 * a new delivery every 1/deliveriesPerSecond s. A non-2xx answer, connection error or
 * timeout makes the engine send the SAME body bytes again after retryBaseMs * 2^(n-1)
 * (capped at MAX_RETRY_DELAY_MS); an acknowledged body is sent once more with probability
 * duplicateRate. After haltAfterFailures consecutive failed attempts the hook turns HALTED
 * and all its deliveries stop, pending redeliveries included (they are dropped, as a real
 * halted hook would not send them). Deleting a hook does the same; a send already in flight
 * finishes and is recorded, but nothing follows it.
 */

import { createRng, type Rng } from '../prng.js';
import { type AttemptKind, AttemptLog, type DeliveryAttempt, isAcknowledged } from './attempt-log.js';
import { DeliverySender } from './delivery-sender.js';
import { DocumentGenerator } from './document-generator.js';
import type { HookRecord, HookStore } from './hook-store.js';
import { signBody } from './sign-body.js';

/** Redelivery delays double from retryBaseMs up to this ceiling. */
export const MAX_RETRY_DELAY_MS = 60_000;
/**
 * Shortest tick of a hook's delivery timer: above 100 deliveries/s (benchmarks) a tick sends
 * several deliveries instead of asking timers for sub-10 ms precision they do not have.
 */
const MIN_TICK_MS = 10;

export interface DeliveryEngineConfig {
  readonly seed: number;
  readonly now: () => Date;
  readonly deliveriesPerSecond: number;
  readonly documentsPerDelivery: number;
  readonly retryBaseMs: number;
  readonly deliveryTimeoutMs: number;
  readonly duplicateRate: number;
  readonly haltAfterFailures: number;
  readonly ca?: string | Buffer | readonly (string | Buffer)[];
}

interface Delivery {
  readonly key: string;
  readonly body: Buffer;
  readonly headers: Readonly<Record<string, string>>;
  readonly documentIds: readonly string[];
  /** Attempts made so far for this body. */
  attempts: number;
  /** Failed attempts so far, for the backoff exponent. */
  failures: number;
}

interface HookRuntime {
  readonly record: HookRecord;
  readonly generator: DocumentGenerator;
  /** Batch sizes and duplicate decisions: deterministic per seed and hook. */
  readonly rng: Rng;
  readonly timers: Set<NodeJS.Timeout>;
  interval?: NodeJS.Timeout;
  sequence: number;
  /** Deliveries owed by past ticks but not yet sent (the fractional part of rate * tick). */
  owed: number;
  stopped: boolean;
}

export class DeliveryEngine {
  private readonly runtimes = new Map<string, HookRuntime>();
  private readonly sender: DeliverySender;
  private readonly log = new AttemptLog();
  private readonly sends = new Set<Promise<void>>();
  private pendingRedeliveries = 0;
  private deliveriesCreated = 0;
  private documentsGenerated = 0;
  private closed = false;

  constructor(
    private readonly store: HookStore,
    private readonly config: DeliveryEngineConfig,
  ) {
    this.sender = new DeliverySender(config.ca);
  }

  /** Starts the periodic deliveries of a newly created hook. */
  start(record: HookRecord): void {
    if (this.closed || this.runtimes.has(record.hookId)) return;
    const runtime: HookRuntime = {
      record,
      generator: new DocumentGenerator(this.config.seed, record.ordinal, record.searchType, this.config.now),
      rng: createRng(this.config.seed, 'deliveries', record.ordinal),
      timers: new Set(),
      sequence: 0,
      owed: 0,
      stopped: false,
    };
    this.runtimes.set(record.hookId, runtime);
    if (this.config.deliveriesPerSecond > 0) {
      const tickMs = Math.max(MIN_TICK_MS, 1000 / this.config.deliveriesPerSecond);
      const perTick = (this.config.deliveriesPerSecond * tickMs) / 1000;
      runtime.interval = setInterval(() => {
        runtime.owed += perTick;
        for (; runtime.owed >= 1 - 1e-9; runtime.owed -= 1) this.deliverNew(runtime);
      }, tickMs);
      runtime.interval.unref();
    }
  }

  /** Stops every future send of the hook, pending redeliveries included. */
  stop(hookId: string): void {
    const runtime = this.runtimes.get(hookId);
    if (!runtime) return;
    runtime.stopped = true;
    clearInterval(runtime.interval);
    for (const timer of runtime.timers) clearTimeout(timer);
    this.pendingRedeliveries -= runtime.timers.size;
    runtime.timers.clear();
    this.runtimes.delete(hookId);
  }

  attempts(): readonly DeliveryAttempt[] {
    return this.log.all();
  }

  stats(): Record<string, number> {
    return {
      ...this.log.counts,
      deliveriesCreated: this.deliveriesCreated,
      documentsGenerated: this.documentsGenerated,
      liveHooks: this.store.list().length,
      deliveringHooks: this.runtimes.size,
      pendingRedeliveries: this.pendingRedeliveries,
      inFlight: this.sends.size,
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const hookId of [...this.runtimes.keys()]) this.stop(hookId);
    const closing = this.sender.close();
    await Promise.allSettled([...this.sends]);
    await closing;
  }

  private deliverNew(runtime: HookRuntime): void {
    if (runtime.stopped) return;
    runtime.sequence += 1;
    const size = runtime.rng.int(1, Math.max(1, this.config.documentsPerDelivery));
    const documents = Array.from({ length: size }, () => runtime.generator.next());
    this.deliveriesCreated += 1;
    this.documentsGenerated += size;
    const { record } = runtime;
    const body = Buffer.from(
      JSON.stringify({
        request: { hook_id: record.hookId, search_id: record.searchId, company_id: record.companyId },
        documents,
      }),
      'utf8',
    );
    const signature = signBody(record.secret, body);
    const delivery: Delivery = {
      key: `${record.hookId}-${runtime.sequence}`,
      body,
      headers: {
        'content-type': 'application/json',
        'x-hub-signature': signature.sha1,
        'x-hub-signature-256': signature.sha256,
        'user-agent': 'campaign-warehouse-simulator',
      },
      documentIds: documents.map((d) => d.id),
      attempts: 0,
      failures: 0,
    };
    this.send(runtime, delivery, 'first');
  }

  private send(runtime: HookRuntime, delivery: Delivery, kind: AttemptKind): void {
    delivery.attempts += 1;
    const attempt = delivery.attempts;
    this.log.started(kind);
    const sending = this.sender
      .send({
        url: runtime.record.targetUrl,
        body: delivery.body,
        headers: delivery.headers,
        timeoutMs: this.config.deliveryTimeoutMs,
      })
      .then((status) => {
        if (this.closed) return;
        this.log.finished({
          hookId: runtime.record.hookId,
          deliveryKey: delivery.key,
          attempt,
          status,
          documentIds: delivery.documentIds,
          at: this.config.now().toISOString(),
        });
        if (!runtime.stopped) this.afterAttempt(runtime, delivery, kind, isAcknowledged(status));
      });
    this.sends.add(sending);
    void sending.finally(() => this.sends.delete(sending));
  }

  private afterAttempt(
    runtime: HookRuntime,
    delivery: Delivery,
    kind: AttemptKind,
    acknowledged: boolean,
  ): void {
    const { record } = runtime;
    if (acknowledged) {
      record.consecutiveFailures = 0;
      if (record.status === 'PENDING') this.store.setStatus(record, 'ACTIVE', this.config.now());
      if (kind !== 'duplicate' && runtime.rng.next() < this.config.duplicateRate) {
        this.later(runtime, this.config.retryBaseMs, () => this.send(runtime, delivery, 'duplicate'));
      }
      return;
    }
    record.consecutiveFailures += 1;
    if (record.consecutiveFailures >= this.config.haltAfterFailures) {
      this.store.setStatus(record, 'HALTED', this.config.now());
      this.stop(record.hookId);
      return;
    }
    // A failed duplicate needs no redelivery: the body was already acknowledged once.
    if (kind === 'duplicate') return;
    delivery.failures += 1;
    const delay = Math.min(MAX_RETRY_DELAY_MS, this.config.retryBaseMs * 2 ** (delivery.failures - 1));
    this.later(runtime, delay, () => this.send(runtime, delivery, 'retry'));
  }

  private later(runtime: HookRuntime, delayMs: number, action: () => void): void {
    const timer = setTimeout(() => {
      runtime.timers.delete(timer);
      this.pendingRedeliveries -= 1;
      if (!runtime.stopped) action();
    }, delayMs);
    timer.unref();
    runtime.timers.add(timer);
    this.pendingRedeliveries += 1;
  }
}
