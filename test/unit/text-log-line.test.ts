/** sync's log on a terminal: pino's JSON line as one line of text, time in ISO 8601 UTC. */
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { textLogLine } from '../../src/util/text-log-line.js';

describe('textLogLine', () => {
  it('writes time, level, name and message, then the fields; no pid or hostname', () => {
    const lines: string[] = [];
    const logger = pino(
      { name: 'sync', timestamp: pino.stdTimeFunctions.isoTime },
      { write: (line: string) => lines.push(line) },
    );
    logger.warn({ campaigns: ['9'], snapshotDate: '2026-11-20' }, 'campaigns not in the API campaign list');
    const text = textLogLine(lines[0]!);
    expect(text).toMatch(
      /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z WARN sync: campaigns not in the API campaign list campaigns=\["9"\] snapshotDate=2026-11-20\n$/,
    );
    expect(text).not.toMatch(/pid|hostname/);
  });

  it('passes a line that is not JSON through as it is', () => {
    expect(textLogLine('plain')).toBe('plain\n');
  });
});
