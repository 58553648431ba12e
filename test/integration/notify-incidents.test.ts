/**
 * The notifications' incidents against real parts: a real state SQLite file, a real sink on
 * loopback, a real sync of the simulator, and a webhook receiver on loopback. Each event fires
 * on its real cause, once per incident (also across a restart), once more when it ends, and
 * as a reminder after 24 h; no payload or log line carries a secret or a webhook's token.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import type { NotifyConfig } from '../../src/config/notify-config.js';
import { runSync } from '../../src/extract/run-sync.js';
import { checkDataChecks, checkDisk, checkStale, reportSyncOutcome } from '../../src/notify/conditions.js';
import { Notifier } from '../../src/notify/notifier.js';
import { createPoster } from '../../src/notify/post-with-retry.js';
import { startSink } from '../../src/sink/start-sink.js';
import { saveDataCheckRecord } from '../../src/state/data-check-record.js';
import { INBOX_DB_FILE } from '../../src/state/inbox-db.js';
import { runs } from '../../src/state/schema.js';
import { Database } from '../../src/state/sqlite-database.js';
import { openStateDb } from '../../src/state/state-db.js';
import { deliveryBody, insertHook, postDelivery, sampleDocument } from '../helpers/sink-fixtures.js';
import { SIM_START, startSim, syncConfig, tempDataDir } from '../helpers/sync-harness.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';

const TOKEN = 'T0KEN-in-the-path';
const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

function captureLog(): { logger: pino.Logger; text: () => string } {
  let text = '';
  const stream = new Writable({
    write(chunk, _encoding, done) {
      text += String(chunk);
      done();
    },
  });
  return { logger: pino({ level: 'debug' }, stream), text: () => text };
}

async function receiver(): Promise<WebhookReceiver> {
  const r = await startWebhookReceiver();
  closers.push(() => r.close());
  return r;
}

function configFor(r: WebhookReceiver, extra: Partial<NotifyConfig> = {}): NotifyConfig {
  return {
    webhooks: [
      { url: `${r.url}/json/${TOKEN}`, format: 'json' },
      { url: `${r.url}/slack/${TOKEN}`, format: 'slack' },
    ],
    staleAfterHours: 36,
    ...extra,
  };
}

function notifier(
  dataDir: string,
  config: NotifyConfig,
  options: { now?: () => Date; logger?: pino.Logger } = {},
): Notifier {
  const n = new Notifier({
    config,
    dataDir,
    logger: options.logger ?? pino({ level: 'silent' }),
    ...(options.now ? { now: options.now } : {}),
    poster: createPoster({ minRetryMs: 10, attemptTimeoutMs: 2_000, totalMs: 5_000 }),
  });
  closers.push(() => n.close(5_000));
  return n;
}

const jsonOf = (r: WebhookReceiver) => r.messages(`/json/${TOKEN}`);

describe('incidents', () => {
  it('announce a start once, also across a restart, remind after 24 h, and announce the end once', async () => {
    const r = await receiver();
    const dataDir = tempDataDir();
    let at = new Date('2026-11-20T22:00:00Z');
    const first = notifier(dataDir, configFor(r), { now: () => at });
    first.raise('sync_failed', 'sync of 2026-11-20 failed: API answered 500', { attempt: 1 });
    first.raise('sync_failed', 'sync of 2026-11-20 failed: API answered 500', { attempt: 2 });
    await first.settled();
    expect(jsonOf(r)).toEqual([
      {
        event: 'sync_failed',
        severity: 'critical',
        summary: 'sync of 2026-11-20 failed: API answered 500',
        details: { attempt: 1 },
        occurred_at: '2026-11-20T22:00:00.000Z',
        resolved: false,
      },
    ]);
    const slack = r.received.filter((m) => m.path === `/slack/${TOKEN}`).map((m) => JSON.parse(m.body));
    expect(slack).toHaveLength(1);
    expect(slack[0].text).toContain('sync_failed');
    expect(slack[0].blocks[0]).toMatchObject({ type: 'section', text: { type: 'mrkdwn' } });
    await first.close(5_000);

    // A restart: the open incident is remembered, so nothing is repeated.
    const second = notifier(dataDir, configFor(r), { now: () => at });
    second.raise('sync_failed', 'sync of 2026-11-20 failed: API answered 500', { attempt: 3 });
    at = new Date('2026-11-21T21:00:00Z');
    second.remind();
    await second.settled();
    expect(jsonOf(r)).toHaveLength(1);
    at = new Date('2026-11-21T22:00:00Z');
    second.remind();
    second.remind();
    await second.settled();
    expect(jsonOf(r).slice(1)).toEqual([
      expect.objectContaining({
        event: 'sync_failed',
        reminder: true,
        details: { attempt: 3 },
        resolved: false,
      }),
    ]);

    second.clear('sync_failed', 'sync of 2026-11-21 succeeded');
    second.clear('sync_failed', 'sync of 2026-11-21 succeeded');
    await second.settled();
    expect(jsonOf(r).slice(2)).toEqual([
      {
        event: 'sync_recovered',
        severity: 'info',
        summary: 'sync of 2026-11-21 succeeded',
        details: { started_at: '2026-11-20T22:00:00.000Z' },
        occurred_at: '2026-11-21T22:00:00.000Z',
        resolved: true,
      },
    ]);
  });

  it('sync_failed on a failing API, sync_recovered and data_checks_failed on the next run, then its end', async () => {
    const r = await receiver();
    const dataDir = tempDataDir();
    const failing = await startSim({ faults: { error500Rate: 1 } });
    closers.push(() => failing.close());
    const n = notifier(dataDir, configFor(r), { now: () => failing.clock.now() });
    const quiet = pino({ level: 'silent' });
    const config = syncConfig(failing, dataDir, { maxRetries: 0 });
    const error = await runSync(config, { logger: quiet, now: () => failing.clock.now() }).catch(
      (e: Error) => e,
    );
    expect(error).toBeInstanceOf(Error);
    reportSyncOutcome(n, dataDir, {
      ok: false,
      snapshotDate: '2026-11-20',
      reason: (error as Error).message,
    });
    reportSyncOutcome(n, dataDir, {
      ok: false,
      snapshotDate: '2026-11-20',
      reason: (error as Error).message,
    });
    await n.settled();
    expect(jsonOf(r).map((m) => m.event)).toEqual(['sync_failed']);
    expect(jsonOf(r)[0]!.details).toMatchObject({ snapshot_date: '2026-11-20', attempt: 1 });

    const broken = await startSim({ inconsistent: [{ campaignId: '5001', kind: 'num_posts', delta: 2 }] });
    closers.push(() => broken.close());
    const summary = await runSync(syncConfig(broken, dataDir), {
      logger: quiet,
      now: () => broken.clock.now(),
    });
    expect(summary.checks.failed.length).toBeGreaterThan(0);
    reportSyncOutcome(n, dataDir, { ok: true, snapshotDate: summary.snapshotDate, line: 'ok' });
    await n.settled();
    const [recovered, checks] = jsonOf(r).slice(1);
    expect(recovered).toMatchObject({ event: 'sync_recovered', resolved: true });
    expect(checks).toMatchObject({ event: 'data_checks_failed', severity: 'warning', resolved: false });
    expect(checks!.details.checks).toContainEqual({
      check: 'campaign_posts_counted',
      segment: 'all',
      campaigns: 1,
    });

    const nextDay = new Date(SIM_START.getTime() + 86_400_000);
    const clean = await startSim({ startTime: nextDay });
    closers.push(() => clean.close());
    const fixed = await runSync(syncConfig(clean, dataDir), { logger: quiet, now: () => clean.clock.now() });
    expect(fixed.checks.failed).toEqual([]);
    reportSyncOutcome(n, dataDir, { ok: true, snapshotDate: fixed.snapshotDate, line: 'ok' });
    reportSyncOutcome(n, dataDir, { ok: true, snapshotDate: fixed.snapshotDate, line: 'ok' });
    await n.settled();
    // The broken day counted two posts too many for 5001, so the next day's history checks see
    // its posts fall: history_checks_failed is raised as the rule checks' incident ends.
    expect(jsonOf(r).slice(3)).toEqual([
      expect.objectContaining({ event: 'data_checks_failed', resolved: true }),
      expect.objectContaining({ event: 'history_checks_failed', resolved: false }),
    ]);
    expect(jsonOf(r)[4]!.details.checks).toContainEqual({
      check: 'campaign_posts_not_decreasing',
      segment: 'all',
      campaigns: 1,
    });
  });

  it('history_checks_failed apart from data_checks_failed, for check results of kind history', async () => {
    const r = await receiver();
    const dataDir = tempDataDir();
    const n = notifier(dataDir, configFor(r));
    const result = (check: string, status: 'passed' | 'failed', kind?: 'history') => ({
      segment: 'all',
      check,
      status,
      checked: 10,
      failing: status === 'failed' ? 3 : 0,
      failingCampaigns: status === 'failed' ? 2 : 0,
      campaigns: status === 'failed' ? ['5000', '5001'] : [],
      ...(kind ? { kind } : {}),
    });
    const record = (results: ReturnType<typeof result>[]) =>
      saveDataCheckRecord(n.state, {
        runId: 'r1',
        snapshotDate: '2026-11-20',
        mode: 'warn',
        checkedAt: '2026-11-20T22:00:00Z',
        results,
      });
    record([result('campaign_posts_counted', 'passed'), result('posts_never_shrink', 'failed', 'history')]);
    checkDataChecks(n);
    checkDataChecks(n);
    record([result('campaign_posts_counted', 'passed'), result('posts_never_shrink', 'passed', 'history')]);
    checkDataChecks(n);
    await n.settled();
    expect(jsonOf(r).map((m) => [m.event, m.resolved])).toEqual([
      ['history_checks_failed', false],
      ['history_checks_failed', true],
    ]);
    expect(jsonOf(r)[0]!.details.checks).toEqual([
      { check: 'posts_never_shrink', segment: 'all', campaigns: 2 },
    ]);
  });

  it('data_stale once the latest completed refresh has gone unsynced for staleAfterHours, until a success', async () => {
    const r = await receiver();
    const dataDir = tempDataDir();
    const state = openStateDb(dataDir);
    closers.push(async () => state.close());
    const success = (snapshotDate: string, finishedAt: string) =>
      state.db
        .insert(runs)
        .values({
          runId: `run-${snapshotDate}`,
          snapshotDate,
          status: 'succeeded',
          startedAt: finishedAt,
          finishedAt,
        })
        .run();
    success('2026-11-18', '2026-11-18T21:40:00Z');
    // The refresh of the 19th completed at 2026-11-19T21:00Z: 12 h behind at 09:00 on the 20th.
    let at = new Date('2026-11-20T08:59:00Z');
    const n = notifier(dataDir, configFor(r, { staleAfterHours: 12 }), { now: () => at });
    checkStale(n);
    await n.settled();
    expect(jsonOf(r)).toEqual([]);
    at = new Date('2026-11-20T09:00:00Z');
    checkStale(n);
    at = new Date('2026-11-20T10:00:00Z');
    checkStale(n);
    await n.settled();
    expect(jsonOf(r)).toEqual([
      expect.objectContaining({
        event: 'data_stale',
        severity: 'critical',
        details: { behind_hours: 12, stale_after_hours: 12 },
      }),
    ]);
    success('2026-11-19', '2026-11-20T10:30:00Z');
    at = new Date('2026-11-20T10:31:00Z');
    checkStale(n);
    checkStale(n);
    await n.settled();
    expect(jsonOf(r).slice(1)).toEqual([expect.objectContaining({ event: 'data_stale', resolved: true })]);
  });

  it('sink_publish_failing when the lake cannot be written, with the backlog, and its end once it can', async () => {
    const r = await receiver();
    const dataDir = tempDataDir();
    const hook = insertHook(dataDir);
    // The lake's folder is a file: every publish fails (ENOTDIR), as for a lake on a lost mount.
    writeFileSync(join(dataDir, 'lake'), 'not a folder');
    const n = notifier(dataDir, configFor(r));
    const log = captureLog();
    const sink = await startSink({
      dataDir,
      port: 0,
      publishIntervalMs: 600_000,
      logger: log.logger,
      notify: { notifier: n, everyMs: 600_000, publishFailingAfterMs: 0 },
    });
    closers.push(() => sink.close());
    expect(await postDelivery(sink.url, hook, deliveryBody(hook, [sampleDocument('d1')]))).toBe(200);
    await expect(sink.publishNow()).rejects.toThrow();
    sink.checkHealthNow();
    await expect(sink.publishNow()).rejects.toThrow();
    sink.checkHealthNow();
    await n.settled();
    expect(jsonOf(r)).toEqual([
      expect.objectContaining({ event: 'sink_publish_failing', severity: 'critical', resolved: false }),
    ]);
    expect(jsonOf(r)[0]!.details).toMatchObject({ backlog: 1 });
    const metrics = await (await fetch(`${sink.url}/metrics`)).text();
    expect(Number(/^sink_publish_failing_seconds (\S+)$/m.exec(metrics)?.[1])).toBeGreaterThan(0);

    rmSync(join(dataDir, 'lake'));
    await sink.publishNow();
    sink.checkHealthNow();
    sink.checkHealthNow();
    await n.settled();
    expect(jsonOf(r).slice(1)).toEqual([
      expect.objectContaining({ event: 'sink_publish_failing', resolved: true }),
    ]);
    expect(log.text()).not.toContain(TOKEN);
  });

  it('sink_inbox_refusing while the inbox cannot commit (503), and its end at the next commit', async () => {
    const r = await receiver();
    const dataDir = tempDataDir();
    const hook = insertHook(dataDir);
    const n = notifier(dataDir, configFor(r));
    const sink = await startSink({
      dataDir,
      port: 0,
      publishIntervalMs: 600_000,
      inboxBusyTimeoutMs: 50,
      logger: pino({ level: 'silent' }),
      notify: { notifier: n, everyMs: 600_000 },
    });
    closers.push(() => sink.close());
    // Another process holds the inbox's write lock: commits fail after the busy timeout.
    const holder = new Database(join(dataDir, INBOX_DB_FILE));
    holder.exec('begin immediate');
    const body = deliveryBody(hook, [sampleDocument('d1')]);
    expect(await postDelivery(sink.url, hook, body)).toBe(503);
    sink.checkHealthNow();
    expect(await postDelivery(sink.url, hook, body)).toBe(503);
    sink.checkHealthNow();
    await n.settled();
    expect(jsonOf(r)).toEqual([expect.objectContaining({ event: 'sink_inbox_refusing', resolved: false })]);
    holder.exec('rollback');
    holder.close();
    expect(await postDelivery(sink.url, hook, body)).toBe(200);
    sink.checkHealthNow();
    sink.checkHealthNow();
    await n.settled();
    expect(jsonOf(r).slice(1)).toEqual([
      expect.objectContaining({ event: 'sink_inbox_refusing', resolved: true }),
    ]);
  });

  it('disk_low when a small file system is filled, and its end once space is freed', async (ctx) => {
    const mount = join(tempDataDir(), 'tmpfs');
    mkdirSync(mount);
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=8m', 'tmpfs', mount], { stdio: 'pipe' });
    } catch (error) {
      console.warn(
        `notify-incidents disk_low test did NOT run: cannot mount a tmpfs (${(error as Error).message.split('\n')[0]})`,
      );
      ctx.skip();
      return;
    }
    closers.push(async () => execFileSync('umount', [mount]));
    const r = await receiver();
    const dataDir = tempDataDir();
    const n = notifier(dataDir, configFor(r));
    // An 8 MB file system is below the 2 GB floor: the test's limits are scaled down to it.
    const limits = { ratio: 0.1, bytes: 2 * 1024 * 1024 };
    checkDisk(n, mount, limits);
    await n.settled();
    expect(jsonOf(r)).toEqual([]);
    const filler = join(mount, 'filler');
    try {
      execFileSync('dd', ['if=/dev/zero', `of=${filler}`, 'bs=64k'], { stdio: 'pipe' });
    } catch {
      // dd stops at "No space left on device": the file system is full to the last byte.
    }
    checkDisk(n, mount, limits);
    checkDisk(n, mount, limits);
    await n.settled();
    expect(jsonOf(r)).toEqual([
      expect.objectContaining({
        event: 'disk_low',
        details: expect.objectContaining({ free_bytes: 0, data_dir: mount }),
      }),
    ]);
    rmSync(filler);
    checkDisk(n, mount, limits);
    await n.settled();
    expect(jsonOf(r).slice(1)).toEqual([expect.objectContaining({ event: 'disk_low', resolved: true })]);
  });

  it('never sends the API key or a hook secret, and logs a target by its host only', async () => {
    const r = await receiver();
    const dataDir = tempDataDir();
    const hook = insertHook(dataDir, { secret: 'hook-secret-0123456789-abcdefghij' });
    const apiKey = 'api-key-secret-42';
    const log = captureLog();
    const n = new Notifier({
      config: configFor(r, { heartbeat: `${r.url}/ping/${TOKEN}` }),
      dataDir,
      logger: log.logger,
      secrets: [apiKey],
      poster: createPoster({ minRetryMs: 10, totalMs: 5_000 }),
    });
    closers.push(() => n.close(5_000));
    // A cause whose text carries both (an API echoing its request, say).
    const reason = `request with key ${apiKey} and hook secret ${hook.secret} refused`;
    n.raise('sync_failed', `sync failed: ${reason}`, { reason });
    n.heartbeat('fail', reason);
    await n.settled();
    expect(r.received).toHaveLength(3);
    for (const m of r.received) {
      expect(m.body).not.toContain(apiKey);
      expect(m.body).not.toContain(hook.secret);
      expect(m.body).toContain('[redacted]');
    }
    expect(log.text()).toContain('"target":"127.0.0.1:');
    expect(log.text()).not.toContain(TOKEN);
    expect(log.text()).not.toContain(hook.secret);
  });
});
