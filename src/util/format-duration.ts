/** A duration for a log line or a message: `300 ms`, `2 s`, `1.5 min`, `15 min`, `2 h`. */
export function formatDuration(ms: number): string {
  if (ms < 1_000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${round1(ms / 1_000)} s`;
  if (ms < 3_600_000) return `${round1(ms / 60_000)} min`;
  return `${round1(ms / 3_600_000)} h`;
}

const round1 = (x: number) => Math.round(x * 10) / 10;
