/**
 * Notifications of a cron-style `sync` and `notify test`, through the built CLI in child
 * processes, against the simulator and a webhook receiver on loopback: a failing API opens
 * sync_failed once over two failed runs, the next success closes it once (sync_recovered);
 * the heartbeat follows healthchecks.io's convention with the run's summary line; a webhook
 * that refuses connections or hangs changes neither the exit code nor the duration beyond
 * SYNC_NOTIFY_WAIT_MS; no secret or webhook token appears in a payload or a log line.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { latestCompletedRefresh } from '../../src/extract/snapshot-date.js';
import { SYNC_NOTIFY_WAIT_MS } from '../../src/notify/sync-notifier.js';
import type { RunningSimulator } from '../../src/simulator/start-simulator.js';
import { ensureBuiltCli } from '../helpers/built-cli.js';
import { loopbackSync, run } from '../helpers/run-cli.js';
import { SMALL, startSim, tempDataDir } from '../helpers/sync-harness.js';
import { refusingUrl, startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';

const KEY = 'sim-key';
/** Today's snapshot (what a cron sync syncs): an older one would also, rightly, raise data_stale. */
const SNAPSHOT = latestCompletedRefresh(new Date());
const TOKEN = 'XOXB-secret-token';
/** Slack for the CLI's child process on a loaded machine: what a bound's test tolerates beyond it. */
const SLACK_MS = 15_000;

let good: RunningSimulator;
let failing: RunningSimulator;
const receivers: WebhookReceiver[] = [];

beforeAll(async () => {
  ensureBuiltCli();
  good = await startSim({ size: { ...SMALL, campaigns: 2 } });
  failing = await startSim({ size: { ...SMALL, campaigns: 2 }, faults: { error500Rate: 1 } });
}, 120_000);
afterAll(async () => {
  await Promise.all([good?.close(), failing?.close(), ...receivers.map((r) => r.close())]);
});

async function receiver(mode: 'ok' | 'hang' = 'ok'): Promise<WebhookReceiver> {
  const r = await startWebhookReceiver(mode);
  receivers.push(r);
  return r;
}

function sync(baseUrl: string, dataDir: string, env: Record<string, string> = {}, config?: object) {
  const args = loopbackSync(baseUrl, dataDir, '--snapshot-date', SNAPSHOT);
  if (config) {
    const file = join(dataDir, '..', `config-${Math.random().toString(36).slice(2)}.json`);
    writeFileSync(file, JSON.stringify(config));
    args.push('--config', file);
  }
  return run(args, { CW_API_KEY: KEY, CW_LOG_LEVEL: 'info', ...env });
}

describe('notifications of a cron sync', () => {
  it('sync_failed once for two failed runs, sync_recovered once on success, heartbeats with the summary line', async () => {
    const r = await receiver();
    const dataDir = join(tempDataDir(), 'data');
    const config = {
      maxRetries: 0,
      notify: {
        webhooks: [{ url: `${r.url}/hook/${TOKEN}`, format: 'json' }],
        heartbeat: `${r.url}/ping/${TOKEN}`,
      },
    };
    // The incidents live in the data directory's state database, which a sync creates once the
    // API has accepted its key: a data directory never synced announces each failure (cli-first-contact).
    const established = await sync(good.url, dataDir, {}, config);
    expect(established.code).toBe(0);
    const first = await sync(failing.url, dataDir, {}, config);
    const second = await sync(failing.url, dataDir, {}, config);
    expect([first.code, second.code]).toEqual([1, 1]);
    const ok = await sync(good.url, dataDir, {}, config);
    expect(ok.code).toBe(0);

    expect(r.messages(`/hook/${TOKEN}`)).toEqual([
      expect.objectContaining({ event: 'sync_failed', severity: 'critical', resolved: false }),
      expect.objectContaining({ event: 'sync_recovered', severity: 'info', resolved: true }),
    ]);
    const [failed, recovered] = r.messages(`/hook/${TOKEN}`);
    expect(failed!.details).toMatchObject({ snapshot_date: SNAPSHOT, attempt: 1 });
    expect(failed!.summary).toMatch(new RegExp(`^sync of ${SNAPSHOT} failed: .*500`));
    expect(recovered!.summary).toContain(`succeeded after a failure: sync ${SNAPSHOT} succeeded in`);

    const pings = r.received.filter((m) => m.path.startsWith('/ping/'));
    expect(pings.map((p) => p.path.replace(`/ping/${TOKEN}`, ''))).toEqual([
      '/start',
      '',
      '/start',
      '/fail',
      '/start',
      '/fail',
      '/start',
      '',
    ]);
    expect(pings[3]!.body).toMatch(new RegExp(`^sync of ${SNAPSHOT} failed: `));
    expect(pings[7]!.body).toMatch(
      new RegExp(`^sync ${SNAPSHOT} succeeded in [\\d.]+ s: \\d+ rows, \\d+ requests; data checks: `),
    );

    for (const m of r.received) expect(m.body).not.toContain(KEY);
    for (const out of [first, second, ok]) {
      expect(out.stderr).not.toContain(TOKEN);
      expect(out.stderr).not.toContain(KEY);
      expect(out.stderr).toContain('"msg":"notification sent"');
    }
  });

  it('a webhook that refuses connections or hangs changes neither the exit code nor the duration beyond a bound', async () => {
    const timed = async (baseUrl: string, env: Record<string, string> = {}) => {
      const started = Date.now();
      const out = await sync(baseUrl, join(tempDataDir(), 'data'), env, { maxRetries: 0 });
      return { ...out, ms: Date.now() - started };
    };
    const refused = await refusingUrl();
    const hanging = `${(await receiver('hang')).url}/hook/${TOKEN}`;
    // All six runs at once, each beside its baseline under the same load: the bound is on the
    // notifications' wait (SYNC_NOTIFY_WAIT_MS), not on how fast the machine runs a sync.
    const cases = [refused, hanging].flatMap((url) =>
      [good.url, failing.url].map((baseUrl) => ({ url, baseUrl })),
    );
    const [plain, plainFailing, ...outs] = await Promise.all([
      timed(good.url),
      timed(failing.url),
      // The heartbeat too: a sync that succeeds with no incident open sends only heartbeats.
      ...cases.map(({ url, baseUrl }) => timed(baseUrl, { CW_NOTIFY_WEBHOOK: url, CW_HEARTBEAT_URL: url })),
    ]);
    expect([plain!.code, plainFailing!.code]).toEqual([0, 1]);
    cases.forEach(({ url, baseUrl }, i) => {
      const out = outs[i]!;
      const baseline = baseUrl === good.url ? plain! : plainFailing!;
      expect(out.code, url).toBe(baseline.code);
      expect(out.ms, url).toBeLessThan(baseline.ms + SYNC_NOTIFY_WAIT_MS + SLACK_MS);
      expect(out.stderr).toMatch(/notification failed|notifications still unsent when stopping/);
      expect(out.stderr).not.toContain(TOKEN);
      expect(out.stderr).not.toContain('token-refused');
    });
  }, 300_000);
});

describe('notify test', () => {
  it('sends a test message to every target and prints each one by its host, with its result', async () => {
    const r = await receiver();
    const refused = await refusingUrl();
    const dir = tempDataDir();
    const file = join(dir, 'config.json');
    writeFileSync(
      file,
      JSON.stringify({
        notify: {
          webhooks: [
            { url: `${r.url}/hook/${TOKEN}`, format: 'slack' },
            { url: refused, format: 'json' },
          ],
        },
      }),
    );
    const out = await run(['notify', 'test', '--config', file], {
      CW_HEARTBEAT_URL: `${r.url}/ping/${TOKEN}`,
    });
    expect(out.code).toBe(1);
    const host = new URL(r.url).host;
    expect(out.stdout).toContain(`webhook ${host} (slack): ok (200)`);
    expect(out.stdout).toContain(`webhook ${new URL(refused).host} (json): FAILED: connection refused`);
    expect(out.stdout).toContain(`heartbeat ${host}: ok (200)`);
    expect(`${out.stdout}${out.stderr}`).not.toContain(TOKEN);
    expect(r.received.map((m) => m.path).sort()).toEqual([`/hook/${TOKEN}`, `/ping/${TOKEN}/log`]);
    expect(JSON.parse(r.received.find((m) => m.path.startsWith('/hook'))!.body)).toMatchObject({
      text: expect.stringContaining('test'),
      blocks: expect.any(Array),
    });
  });

  it('refuses a plain http:// webhook off loopback, naming the setting and the host, never the token', async () => {
    const out = await run(['notify', 'test'], {
      CW_NOTIFY_WEBHOOK: `http://hooks.example.com/services/${TOKEN}`,
    });
    expect(out.code).toBe(2);
    expect(out.stderr).toMatch(/CW_NOTIFY_WEBHOOK: http:\/\/hooks\.example\.com\/… must use https:\/\//);
    expect(out.stderr).not.toContain(TOKEN);
    const none = await run(['notify', 'test']);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('no notification target');
  });
});
