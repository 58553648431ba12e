import { describe, expect, it } from 'vitest';
import {
  decideSchedule,
  RETRY_BASE_MS,
  retryDelayMs,
  type ScheduleState,
} from '../../src/service/schedule-decision.js';

const at = (iso: string) => new Date(iso);
const base = (now: string, over: Partial<ScheduleState> = {}): ScheduleState => ({
  now: at(now),
  running: false,
  lastSuccessSnapshot: null,
  failures: 0,
  lastFailureAt: null,
  ...over,
});

describe('decideSchedule', () => {
  it('runs after the refresh window for today when today is not synced (default slot 21:30 UTC)', () => {
    expect(decideSchedule(base('2026-03-10T21:30:00Z', { lastSuccessSnapshot: '2026-03-09' }))).toEqual({
      action: 'run',
      snapshotDate: '2026-03-10',
      trigger: 'catch-up',
    });
  });

  it('waits when the latest completed refresh is already synced', () => {
    const d = decideSchedule(base('2026-03-10T21:30:00Z', { lastSuccessSnapshot: '2026-03-10' }));
    expect(d.action).toBe('wait');
  });

  it('catches up at start in the morning with the previous evening refresh', () => {
    expect(decideSchedule(base('2026-03-11T07:00:00Z', { lastSuccessSnapshot: '2026-03-09' }))).toEqual({
      action: 'run',
      snapshotDate: '2026-03-10',
      trigger: 'catch-up',
    });
  });

  it('never starts inside the refresh window', () => {
    const d = decideSchedule(base('2026-03-10T19:00:00Z'));
    expect(d).toMatchObject({ action: 'wait', reason: expect.stringContaining('refreshing') });
  });

  it('never overlaps a running sync', () => {
    const d = decideSchedule(base('2026-03-10T21:30:00Z', { running: true }));
    expect(d).toMatchObject({ action: 'wait', reason: 'a sync is already running' });
  });

  it('retries a failure with exponential backoff: 5, 10, 20, 40 minutes', () => {
    expect([1, 2, 3, 4].map((n) => retryDelayMs(n) / 60_000)).toEqual([5, 10, 20, 40]);
    const failedAt = at('2026-03-10T21:31:00Z');
    const early = decideSchedule(base('2026-03-10T21:35:00Z', { failures: 1, lastFailureAt: failedAt }));
    expect(early).toEqual({
      action: 'wait',
      reason: 'retry 2 after a failure',
      until: new Date(failedAt.getTime() + RETRY_BASE_MS),
    });
    const due = decideSchedule(base('2026-03-10T21:36:00Z', { failures: 1, lastFailureAt: failedAt }));
    expect(due).toEqual({ action: 'run', snapshotDate: '2026-03-10', trigger: 'retry' });
  });

  it('stops retrying when the next refresh window opens', () => {
    const d = decideSchedule(
      base('2026-03-11T18:05:00Z', { failures: 6, lastFailureAt: at('2026-03-11T10:00:00Z') }),
    );
    expect(d.action).toBe('wait');
  });
});
