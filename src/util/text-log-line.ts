/**
 * A JSON log line (pino's) as one line of text for a person at a terminal:
 * `2026-11-20T22:30:00.000Z WARN sync: campaigns not in the API campaign list campaigns=["9"]`.
 * The time stays ISO 8601 UTC; pino's bookkeeping fields (pid, hostname, level number) go.
 */
const LEVELS: Readonly<Record<number, string>> = {
  10: 'TRACE',
  20: 'DEBUG',
  30: 'INFO',
  40: 'WARN',
  50: 'ERROR',
  60: 'FATAL',
};
const BOOKKEEPING = new Set(['level', 'time', 'pid', 'hostname', 'name', 'msg']);

export function textLogLine(json: string): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(json) as Record<string, unknown>;
  } catch {
    return json.endsWith('\n') ? json : `${json}\n`;
  }
  const fields = Object.entries(entry)
    .filter(([key]) => !BOOKKEEPING.has(key))
    .map(([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`);
  const head = [
    entry.time,
    LEVELS[entry.level as number] ?? String(entry.level),
    `${entry.name ? `${entry.name}: ` : ''}${entry.msg ?? ''}`,
  ].join(' ');
  return `${[head, ...fields].join(' ')}\n`;
}
