/**
 * The Scheduler over a real state.sqlite with an injected clock and a fake sync that records
 * its run as a real one does (RunRegistry): catch-up at start, no overlap, retry with
 * backoff after a failure (also across a restart, and for a sync that failed before it
 * recorded its run), nothing inside the refresh window, nothing once the snapshot succeeded.
 * tick() is called directly (no cron wait).
 */
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { RunRegistry } from '../../src/extract/run-registry.js';
import { Scheduler } from '../../src/service/scheduler.js';
import { openStateDb, type StateDb } from '../../src/state/state-db.js';
import { tempDir } from '../helpers/temp-dir.js';

let state: StateDb | undefined;
afterEach(() => {
  state?.close();
  state = undefined;
});

function setUp(startIso: string) {
  const db = openStateDb(tempDir('cw-sched-'));
  state = db;
  const registry = new RunRegistry(db);
  let now = new Date(startIso);
  const calls: { snapshotDate: string; trigger: string }[] = [];
  /** 'fail-unrecorded': the sync fails before it records a run (as with a bad config). */
  let outcome: 'succeed' | 'fail' | 'fail-unrecorded' = 'succeed';
  const counters = { requests: 0, retries: 0, throttled: 0 };
  /** A scheduler over this state database, as `serve` starts one (tests also restart it). */
  const start = (): Scheduler =>
    new Scheduler({
      cron: '30 21 * * *',
      timezone: 'UTC',
      state: db,
      logger: pino({ level: 'silent' }),
      now: () => now,
      sync: async (snapshotDate, trigger) => {
        calls.push({ snapshotDate, trigger });
        if (outcome === 'fail-unrecorded') throw new Error('bad config');
        const { run } = registry.begin(snapshotDate, ['all'], trigger, now);
        await new Promise<void>((r) => setImmediate(r));
        const status = outcome === 'succeed' ? 'succeeded' : 'failed';
        registry.finish(run, { status, counters }, now);
        if (outcome === 'fail') throw new Error('boom');
      },
    });
  return {
    scheduler: start(),
    restart: start,
    calls,
    advance: (minutes: number) => {
      now = new Date(now.getTime() + minutes * 60_000);
    },
    set: (o: typeof outcome) => {
      outcome = o;
    },
  };
}

describe('Scheduler.tick', () => {
  it('catches up at start when the latest refresh has no successful snapshot, then waits', async () => {
    const { scheduler, calls } = setUp('2026-03-11T08:00:00Z');
    expect(await scheduler.tick('start')).toMatchObject({ action: 'run', snapshotDate: '2026-03-10' });
    expect(calls).toEqual([{ snapshotDate: '2026-03-10', trigger: 'catch-up' }]);
    expect(await scheduler.tick('check')).toMatchObject({ action: 'wait' });
    expect(calls).toHaveLength(1);
  });

  it('runs at the nightly slot with trigger "scheduled" and never two at once', async () => {
    const { scheduler, calls } = setUp('2026-03-10T21:30:00Z');
    const first = scheduler.tick('scheduled');
    const second = await scheduler.tick('scheduled');
    expect(second).toEqual({ action: 'wait', reason: 'a sync is already running' });
    await first;
    expect(calls).toEqual([{ snapshotDate: '2026-03-10', trigger: 'scheduled' }]);
  });

  it('retries a failed night after 5 then 10 minutes, and stops when the next window opens', async () => {
    const { scheduler, calls, advance, set } = setUp('2026-03-10T21:30:00Z');
    set('fail');
    await scheduler.tick('scheduled');
    advance(4);
    expect(await scheduler.tick('check')).toMatchObject({
      action: 'wait',
      reason: 'retry 2 after a failure',
    });
    advance(1);
    expect(await scheduler.tick('check')).toMatchObject({ action: 'run', trigger: 'retry' });
    advance(9);
    expect((await scheduler.tick('check')).action).toBe('wait');
    advance(1);
    expect((await scheduler.tick('check')).action).toBe('run');
    expect(calls.map((c) => c.trigger)).toEqual(['scheduled', 'retry', 'retry']);
    // Next day 18:30: the refresh window is open, so no more retries of the old night.
    advance(21 * 60);
    expect(await scheduler.tick('check')).toMatchObject({
      action: 'wait',
      reason: expect.stringContaining('refreshing'),
    });
    set('succeed');
    advance(3 * 60);
    // After the window: the new snapshot is due, counted afresh (a catch-up, not a retry).
    expect(await scheduler.tick('check')).toMatchObject({
      action: 'run',
      snapshotDate: '2026-03-11',
      trigger: 'catch-up',
    });
  });

  it("keeps a failed night's backoff across a restart (the runs table counts the failures)", async () => {
    const { scheduler, restart, calls, advance, set } = setUp('2026-03-10T21:30:00Z');
    set('fail');
    await scheduler.tick('scheduled');
    advance(6);
    await scheduler.tick('check');
    expect(calls.map((c) => c.trigger)).toEqual(['scheduled', 'retry']);
    // The service restarts 2 minutes after its second failure: no immediate catch-up, the
    // third attempt still waits the 10 minutes the second failure set.
    advance(2);
    const restarted = restart();
    expect(await restarted.tick('start')).toMatchObject({
      action: 'wait',
      reason: 'retry 3 after a failure',
    });
    advance(8);
    set('succeed');
    expect(await restarted.tick('check')).toMatchObject({ action: 'run', trigger: 'retry' });
    expect(calls).toHaveLength(3);
    expect(await restarted.tick('check')).toMatchObject({
      action: 'wait',
      reason: expect.stringContaining('already synced'),
    });
  });

  it('backs off a sync that fails before recording its run', async () => {
    const { scheduler, calls, advance, set } = setUp('2026-03-10T21:30:00Z');
    set('fail-unrecorded');
    await scheduler.tick('scheduled');
    advance(1);
    expect(await scheduler.tick('check')).toMatchObject({
      action: 'wait',
      reason: 'retry 2 after a failure',
    });
    advance(4);
    expect(await scheduler.tick('check')).toMatchObject({ action: 'run', trigger: 'retry' });
    expect(calls).toHaveLength(2);
  });
});
