/**
 * Contract: the simulator's streaming area — the four hook operations, the three schema
 * documents, GET /v3/searches, and the delivery engine that POSTs signed batches of
 * documents to every live hook's target_url (behaviour: api-profile.md "Hooks" and
 * "Pushed documents"; details in delivery-engine.ts and hook-store.ts).
 *
 * `stats()` keys: attempted, acknowledged, failed, retried (redeliveries after a failure),
 * duplicatesSent (re-sends of acknowledged bodies), deliveriesCreated (distinct bodies),
 * documentsGenerated, liveHooks (not deleted, HALTED included), deliveringHooks,
 * pendingRedeliveries (scheduled retries and duplicates), inFlight.
 */
import { randomBytes } from 'node:crypto';
import { stableHex } from '../prng.js';
import type { SimRoute } from '../route.js';
import type { DeliveryAttempt } from './attempt-log.js';
import { createCatalogRoutes } from './catalog-routes.js';
import { DeliveryEngine } from './delivery-engine.js';
import { createHookRoutes } from './hook-routes.js';
import { HookStore } from './hook-store.js';
import { buildSearches, type PredefinedSearch } from './searches.js';

export interface HookServiceOptions {
  readonly seed: number;
  /** The simulator's clock. */
  now(): Date;
  /** Deliveries per second per live hook (0 stops deliveries). */
  readonly deliveriesPerSecond?: number;
  readonly documentsPerDelivery?: number;
  /** First redelivery delay after a non-2xx answer or a timeout; doubles each attempt. */
  readonly retryBaseMs?: number;
  readonly deliveryTimeoutMs?: number;
  /** Share of deliveries sent a second time even when acknowledged (the real service does this). */
  readonly duplicateRate?: number;
  /** Consecutive failed attempts after which a hook turns HALTED and its deliveries stop. */
  readonly haltAfterFailures?: number;
  /** Extra trusted CA certificate(s) (PEM) for https target URLs, e.g. a test sink's self-signed one. */
  readonly ca?: string | Buffer | readonly (string | Buffer)[];
  /** The `company_id` of hooks created without one (default derived from the seed). */
  readonly defaultCompanyId?: string;
}

export interface HookService {
  readonly routes: readonly SimRoute[];
  /** Every delivery attempt and its outcome, oldest first. */
  attempts(): readonly DeliveryAttempt[];
  stats(): Record<string, number>;
  close(): Promise<void>;
  /** The predefined searches served by GET /v3/searches (ids from FIRST_SEARCH_ID). */
  searches(): readonly PredefinedSearch[];
}

/** Two deliveries per second per hook: a steady stream without flooding a test sink. */
export const DEFAULT_DELIVERIES_PER_SECOND = 2;
/** Up to five documents per body (~5-10 KB): batching exists but bodies stay small. */
export const DEFAULT_DOCUMENTS_PER_DELIVERY = 5;
/** One second to the first redelivery, then 2 s, 4 s, ...: a restarting sink is found quickly. */
export const DEFAULT_RETRY_BASE_MS = 1_000;
/** A receiver must answer within 10 s, as webhook senders commonly require. */
export const DEFAULT_DELIVERY_TIMEOUT_MS = 10_000;
/** 2% of acknowledged bodies arrive twice, so receivers meet duplicates without a fault. */
export const DEFAULT_DUPLICATE_RATE = 0.02;
/**
 * 100 consecutive failures (about a minute of total outage at the default rate, counting
 * redeliveries) halt a hook: long enough to survive a sink restart, short enough to stop
 * hammering a target that is gone.
 */
export const DEFAULT_HALT_AFTER_FAILURES = 100;
/** Length of a generated X-Hook-Secret: 16 random bytes as hex. */
export const GENERATED_SECRET_LENGTH = 32;

export function createHookService(options: HookServiceOptions): HookService {
  const searches = buildSearches(options.seed);
  const store = new HookStore(options.seed);
  const engine = new DeliveryEngine(store, {
    seed: options.seed,
    now: () => options.now(),
    deliveriesPerSecond: options.deliveriesPerSecond ?? DEFAULT_DELIVERIES_PER_SECOND,
    documentsPerDelivery: options.documentsPerDelivery ?? DEFAULT_DOCUMENTS_PER_DELIVERY,
    retryBaseMs: options.retryBaseMs ?? DEFAULT_RETRY_BASE_MS,
    deliveryTimeoutMs: options.deliveryTimeoutMs ?? DEFAULT_DELIVERY_TIMEOUT_MS,
    duplicateRate: options.duplicateRate ?? DEFAULT_DUPLICATE_RATE,
    haltAfterFailures: options.haltAfterFailures ?? DEFAULT_HALT_AFTER_FAILURES,
    ...(options.ca === undefined ? {} : { ca: options.ca }),
  });
  const routes = [
    ...createCatalogRoutes(searches),
    ...createHookRoutes({
      store,
      engine,
      searches,
      defaultCompanyId: options.defaultCompanyId ?? stableHex(24, options.seed, 'company'),
      // Random, not seeded: a secret must not be guessable from the simulator's seed.
      generateSecret: () => randomBytes(GENERATED_SECRET_LENGTH / 2).toString('hex'),
    }),
  ];
  return {
    routes,
    attempts: () => engine.attempts(),
    stats: () => engine.stats(),
    close: () => engine.close(),
    searches: () => searches,
  };
}
