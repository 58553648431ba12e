/** Every delivery attempt and the engine's counters, for tests and the simulator's introspection. */
import type { DeliveryOutcome } from './delivery-sender.js';

/** Attempts kept in memory; older ones are dropped so a long demo does not grow without bound. */
export const MAX_RECORDED_ATTEMPTS = 100_000;

/** One POST of a delivery's body to a hook's target_url, and how the receiver answered. */
export interface DeliveryAttempt {
  readonly hookId: string;
  readonly deliveryKey: string;
  readonly attempt: number;
  readonly status: DeliveryOutcome;
  readonly documentIds: readonly string[];
  readonly at: string;
}

export type AttemptKind = 'first' | 'retry' | 'duplicate';

export class AttemptLog {
  private readonly log: DeliveryAttempt[] = [];
  readonly counts = { attempted: 0, acknowledged: 0, failed: 0, retried: 0, duplicatesSent: 0 };

  constructor(private readonly limit = MAX_RECORDED_ATTEMPTS) {}

  started(kind: AttemptKind): void {
    this.counts.attempted += 1;
    if (kind === 'retry') this.counts.retried += 1;
    if (kind === 'duplicate') this.counts.duplicatesSent += 1;
  }

  finished(attempt: DeliveryAttempt): void {
    if (isAcknowledged(attempt.status)) this.counts.acknowledged += 1;
    else this.counts.failed += 1;
    this.log.push(attempt);
    // Trim in chunks: one splice per 10% overflow instead of a shift per attempt.
    if (this.log.length > this.limit * 1.1) this.log.splice(0, this.log.length - this.limit);
  }

  all(): readonly DeliveryAttempt[] {
    return [...this.log];
  }
}

/** A receiver acknowledges with any 2xx. */
export function isAcknowledged(status: DeliveryOutcome): boolean {
  return typeof status === 'number' && status >= 200 && status < 300;
}
