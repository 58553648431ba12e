import { Writable } from 'node:stream';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { formatSummary } from '../../src/extract/format-summary.js';
import { createProgressReporter } from '../../src/extract/progress-reporter.js';
import type { SyncProgress, SyncSummary } from '../../src/extract/run-sync.js';

/** A pino logger whose JSON lines land in `lines`. */
function capturingLogger(lines: Record<string, unknown>[]) {
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n')) if (line) lines.push(JSON.parse(line));
      done();
    },
  });
  return pino({ level: 'info' }, stream);
}

const progress: SyncProgress = {
  snapshotDate: '2026-11-23',
  unitsDone: 3,
  unitsTotal: 3,
  requests: 40,
  throttled: 3,
  throttleWaitMs: 2600,
  overloadWaitMs: 2500,
  rateLimitWaitMs: 100,
  rateRps: 9.512,
  rateReason: '5 of the last 12 replies were 429s: the server takes about 9.9/s',
  elapsedMs: 4000,
};

describe('sync progress and summary', () => {
  it('logs every change of rate with its reason, and the rate in progress lines', async () => {
    const lines: Record<string, unknown>[] = [];
    const reporter = createProgressReporter(capturingLogger(lines), false);
    reporter.apiEvent({ type: 'rate', rps: 9.512, reason: progress.rateReason });
    reporter.apiEvent({ type: 'request', method: 'GET', endpoint: 'GET /v3/x', status: 200, ms: 3 });
    reporter.update(progress);
    await new Promise((r) => setImmediate(r));
    expect(lines.map((l) => l.msg)).toEqual(['request rate changed', 'sync progress']);
    expect(lines[0]).toMatchObject({ rateRps: 9.5, reason: progress.rateReason });
    expect(lines[1]).toMatchObject({
      rateRps: 9.5,
      rateReason: progress.rateReason,
      overloadWaitMs: 2500,
      rateLimitWaitMs: 100,
    });
  });

  it('separates overload 429s and waits from rate-limit ones in the summary', () => {
    const summary: SyncSummary = {
      runId: 'r1',
      snapshotDate: '2026-11-23',
      resumed: false,
      unitsSkipped: 0,
      units: 3,
      rowsByTable: { campaigns: 3 },
      rowsWritten: 3,
      requests: 40,
      retries: 0,
      throttled: 3,
      overloaded: 2,
      overloadWaitMs: 2500,
      rateLimited: 1,
      rateLimitWaitMs: 100,
      throttleWaitMs: 2600,
      durationMs: 4000,
      checks: {
        mode: 'warn',
        ran: 16,
        failed: [],
        history: { results: [], files: 0, durationMs: 0 },
        drift: [],
        durationMs: 20,
      },
      warnings: [
        "segment beauty: tag id(s) 12 not in the API's tags list (the filter matches nothing for them)",
      ],
    };
    const text = formatSummary(summary);
    expect(text).toContain('429s 3 (waited 2.6 s)');
    expect(text).toContain('overload: 2 429s, waited 2.5 s; rate limit: 1 429s, waited 0.1 s');
    expect(text).toContain('data checks: 16 ran, none failed');
    expect(text).toMatch(/\nwarning: segment beauty: tag id\(s\) 12 not in the API's tags list/);
  });
});

describe('long pauses the API asks for', () => {
  it('are logged once as they start (a warning when capped); short ones are not', async () => {
    const lines: Record<string, unknown>[] = [];
    const reporter = createProgressReporter(capturingLogger(lines), false);
    const endpoint = 'GET /v3/influencers/campaigns/7/posts';
    reporter.apiEvent({ type: 'throttled', endpoint, waitMs: 1_000, capped: false, kind: 'overload' });
    // Four requests refused together: one pause, one line.
    for (const requestId of ['req-1', 'req-2', 'req-3', 'req-4'])
      reporter.apiEvent({
        type: 'throttled',
        endpoint,
        waitMs: 900_000,
        capped: true,
        kind: 'overload',
        requestId,
      });
    reporter.apiEvent({ type: 'paused', endpoint, waitMs: 40_000, capped: false });
    await new Promise((r) => setImmediate(r));
    expect(lines.map((l) => [l.level, l.msg])).toEqual([
      [
        40,
        'waiting 15 min as the API asked (its Retry-After was further away: capped at the 15 min maximum); every request pauses until then (SIGINT or SIGTERM stops the sync; the next run resumes it)',
      ],
    ]);
    expect(lines[0]).toMatchObject({ endpoint, waitMs: 900_000, capped: true, requestId: 'req-1' });

    const later: Record<string, unknown>[] = [];
    const fresh = createProgressReporter(capturingLogger(later), false);
    fresh.apiEvent({ type: 'paused', endpoint, waitMs: 40_000, capped: false });
    await new Promise((r) => setImmediate(r));
    expect(later.map((l) => [l.level, l.msg])).toEqual([
      [
        30,
        'waiting 40 s as the API asked (RateLimit-Remaining 0); every request pauses until then (SIGINT or SIGTERM stops the sync; the next run resumes it)',
      ],
    ]);
  });
});
