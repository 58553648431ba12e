/**
 * Contract (stub, replaced by the implementation): the simulator's streaming area — the
 * four hook operations, the three schema documents, GET /v3/searches, and the delivery
 * engine that POSTs signed batches of documents to every live hook's target_url.
 */
import type { SimRoute } from '../route.js';

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
}

export interface DeliveryAttempt {
  readonly hookId: string;
  readonly deliveryKey: string;
  readonly attempt: number;
  readonly status: number | 'timeout' | 'error';
  readonly documentIds: readonly string[];
  readonly at: string;
}

export interface HookService {
  readonly routes: readonly SimRoute[];
  /** Every delivery attempt and its outcome, oldest first. */
  attempts(): readonly DeliveryAttempt[];
  stats(): Record<string, number>;
  close(): Promise<void>;
}

export function createHookService(_options: HookServiceOptions): HookService {
  return { routes: [], attempts: () => [], stats: () => ({}), close: async () => {} };
}
