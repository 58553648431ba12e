import type { Fault } from './faults.js';

/** Introspection counters of the simulator (GET /__sim/stats). */
export class SimStats {
  private requests = 0;
  private readonly byEndpoint: Record<string, number> = {};
  private readonly byStatus: Record<string, number> = {};
  private readonly faults: Record<string, number> = {};
  private throttled = 0;

  record(endpoint: string, status: number, fault: Fault | undefined): void {
    this.requests++;
    this.byEndpoint[endpoint] = (this.byEndpoint[endpoint] ?? 0) + 1;
    this.byStatus[status] = (this.byStatus[status] ?? 0) + 1;
    if (status === 429) this.throttled++;
    if (fault) this.faults[fault] = (this.faults[fault] ?? 0) + 1;
  }

  snapshot(): {
    requests: number;
    throttled: number;
    byEndpoint: Record<string, number>;
    byStatus: Record<string, number>;
    faults: Record<string, number>;
  } {
    return {
      requests: this.requests,
      throttled: this.throttled,
      byEndpoint: { ...this.byEndpoint },
      byStatus: { ...this.byStatus },
      faults: { ...this.faults },
    };
  }
}
