/**
 * The newest API requests the simulator answered, in arrival order: when each arrived
 * (epoch ms with fractions, taken as the rate limit sees it), its endpoint and status.
 * Tests and benches read request timings from it; it keeps at most `capacity` entries, so
 * a long-running simulator does not grow.
 */
export interface LoggedRequest {
  readonly at: number;
  readonly endpoint: string;
  readonly status: number;
}

export class RequestLog {
  private entries: LoggedRequest[] = [];

  constructor(private readonly capacity = 10_000) {}

  add(entry: LoggedRequest): void {
    this.entries.push(entry);
    if (this.entries.length > this.capacity * 2) this.entries = this.entries.slice(-this.capacity);
  }

  list(): readonly LoggedRequest[] {
    return this.entries.slice(-this.capacity);
  }
}
