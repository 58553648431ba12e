import type { Fault } from './faults.js';

/** Counters of the API answers (the `/__sim/` introspection routes are not counted). */
export interface SimStatsSnapshot {
  readonly requests: number;
  /** 429s sent, by the rate limit or the overload fault. */
  readonly throttled: number;
  /** Keyed `METHOD /path/{id}` (the route pattern), or `METHOD (unknown)`. */
  readonly byEndpoint: Record<string, number>;
  readonly byStatus: Record<string, number>;
  /** Keyed '2xx', '4xx', '5xx'. */
  readonly byClass: Record<string, number>;
  /** Faults sent, by kind (faults.ts `Fault`). */
  readonly faults: Record<string, number>;
}

/** Introspection counters of the simulator (GET /__sim/stats). */
export class SimStats {
  private requests = 0;
  private readonly byEndpoint: Record<string, number> = {};
  private readonly byStatus: Record<string, number> = {};
  private readonly byClass: Record<string, number> = {};
  private readonly faults: Record<string, number> = {};
  private throttled = 0;

  record(endpoint: string, status: number, fault: Fault | undefined): void {
    this.requests++;
    this.byEndpoint[endpoint] = (this.byEndpoint[endpoint] ?? 0) + 1;
    this.byStatus[status] = (this.byStatus[status] ?? 0) + 1;
    const statusClass = `${Math.floor(status / 100)}xx`;
    this.byClass[statusClass] = (this.byClass[statusClass] ?? 0) + 1;
    if (status === 429) this.throttled++;
    if (fault) this.faults[fault] = (this.faults[fault] ?? 0) + 1;
  }

  snapshot(): SimStatsSnapshot {
    return {
      requests: this.requests,
      throttled: this.throttled,
      byEndpoint: { ...this.byEndpoint },
      byStatus: { ...this.byStatus },
      byClass: { ...this.byClass },
      faults: { ...this.faults },
    };
  }
}
