/** The simulated clock: runs at real speed from a settable start, so tests can pick the hour. */
export class SimClock {
  private offsetMs: number;

  constructor(start: Date) {
    this.offsetMs = start.getTime() - Date.now();
  }

  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }

  set(at: Date): void {
    this.offsetMs = at.getTime() - Date.now();
  }

  advance(ms: number): void {
    this.offsetMs += ms;
  }
}
