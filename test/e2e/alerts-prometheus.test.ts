/**
 * Alerting end to end, as deployed: a real `serve` (the built CLI, its clock after the API's
 * refresh window) whose catch-up sync fails against a failing API on loopback.
 * - Its built-in notifications: sync_failed arrives at the webhook once, with the attempt and
 *   the next retry, and /metrics shows the failure.
 * - Debian's `prometheus` scrapes it with the shipped rules (docs/alerts/, their `for:`
 *   shortened to 0s and intervals to a second); Debian's `prometheus-alertmanager` routes
 *   the firing alert to a webhook receiver in this test: CampaignWarehouseSyncFailed arrives.
 * Without the two packages the second part says so and does not run (.ci/run installs them).
 * Every wait is bounded; Prometheus and Alertmanager run with their data in a temp folder
 * and are killed after.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSimulator, startSimulator } from '../../src/simulator/start-simulator.js';
import { packageRoot } from '../../src/util/package-root.js';
import { ensureBuiltCli } from '../helpers/built-cli.js';
import { commandMissing } from '../helpers/command-missing.js';
import { freePort } from '../helpers/free-port.js';
import { tempDir } from '../helpers/temp-dir.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';

const SHIFT_CLOCK = fileURLToPath(new URL('../helpers/shift-clock.mjs', import.meta.url));
const TOKEN = 'hook-token-of-the-test';
/** The longest any step may take on a loaded two-core machine. */
const BOUND_MS = 60_000;

const missing =
  commandMissing('prometheus', 'prometheus') ??
  commandMissing('prometheus-alertmanager', 'prometheus-alertmanager');
if (missing)
  console.warn(`alerts-prometheus.test.ts did NOT run its Prometheus/Alertmanager part: ${missing}`);

const children: ChildProcess[] = [];
let sim: RunningSimulator;
let hooks: WebhookReceiver;
let serveLog = '';
let sinkUrl = '';

/** Starts a child process; its output is kept for the failure message. */
function start(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
): { proc: ChildProcess; log: () => string } {
  const proc = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(proc);
  let log = '';
  proc.stdout?.on('data', (c: Buffer) => (log += c.toString()));
  proc.stderr?.on('data', (c: Buffer) => (log += c.toString()));
  return { proc, log: () => log };
}

/** Polls `probe` until it returns a value, at most BOUND_MS. */
async function until<T>(
  what: string,
  probe: () => Promise<T | undefined>,
  log: () => string = () => '',
): Promise<T> {
  const deadline = Date.now() + BOUND_MS;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${BOUND_MS} ms\n${log().slice(-2000)}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

beforeAll(async () => {
  ensureBuiltCli();
  hooks = await startWebhookReceiver();
  // After the refresh window, whatever the time of day: serve catches up at once.
  const at = new Date(`${new Date().toISOString().slice(0, 10)}T22:30:00Z`);
  sim = await startSimulator({
    startTime: at,
    faults: { error500Rate: 1 },
    hooks: { deliveriesPerSecond: 0 },
  });
  const dir = tempDir('cw-alerts-');
  const config = join(dir, 'config.json');
  writeFileSync(
    config,
    JSON.stringify({
      maxRetries: 0,
      notify: { webhooks: [{ url: `${hooks.url}/built-in/${TOKEN}`, format: 'json' }] },
    }),
  );
  const serve = start(
    process.execPath,
    [
      ensureBuiltCli(),
      'serve',
      '--port',
      '0',
      '--base-url',
      sim.url,
      '--data-dir',
      join(dir, 'data'),
      '--config',
      config,
    ],
    {
      ...process.env,
      CW_API_KEY: 'sim-key',
      CW_LOG_LEVEL: 'info',
      NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import=${SHIFT_CLOCK}`.trim(),
      CW_TEST_CLOCK_SHIFT_MS: String(at.getTime() - Date.now()),
    },
  );
  sinkUrl = await until(
    'serve listening',
    async () => {
      const line = serve
        .log()
        .split('\n')
        .find((l) => l.includes('"msg":"serving"'));
      return line ? (JSON.parse(line) as { sink: string }).sink : undefined;
    },
    serve.log,
  );
  serveLog = '';
  serve.proc.stderr?.on('data', (c: Buffer) => (serveLog += c.toString()));
}, 120_000);

afterAll(async () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  await Promise.all([sim?.close(), hooks?.close()]);
});

describe('a failed sync under serve', () => {
  it('is announced once by the built-in notifications, with the attempt and the next retry, and shown in /metrics', async () => {
    await until('sync_failed at the webhook', async () =>
      hooks.messages().some((m) => m.event === 'sync_failed') ? true : undefined,
    );
    // Only sync_failed's: a CI machine with little disk may rightly add disk_low.
    const messages = hooks.messages(`/built-in/${TOKEN}`).filter((m) => m.event === 'sync_failed');
    expect(messages).toEqual([
      expect.objectContaining({ event: 'sync_failed', severity: 'critical', resolved: false }),
    ]);
    expect(messages[0]!.details).toMatchObject({
      attempt: 1,
      next_retry_at: expect.stringMatching(/^\d{4}-/),
    });
    const metrics = await (await fetch(`${sinkUrl}/metrics`)).text();
    expect(metrics).toMatch(/^cw_sync_last_run_failed 1$/m);
    expect(metrics).toMatch(/^cw_notifications_sent_total [1-9]/m);
    expect(metrics).toMatch(/^cw_notifications_failed_total 0$/m);
    expect(serveLog).not.toContain(TOKEN);
  });

  it.skipIf(missing !== undefined)(
    'fires CampaignWarehouseSyncFailed in Prometheus, routed by Alertmanager to a webhook',
    async () => {
      const dir = tempDir('cw-prom-');
      const [promPort, amPort] = [await freePort(), await freePort()];
      const alerts = await startWebhookReceiver();
      try {
        // The shipped rules, with their `for:` durations shortened so the test is quick.
        const rules = readFileSync(
          join(packageRoot(), 'docs', 'alerts', 'campaign-warehouse.rules.yml'),
          'utf8',
        );
        writeFileSync(join(dir, 'rules.yml'), rules.replace(/\bfor: \d+[smh]\b/g, 'for: 0s'));
        writeFileSync(
          join(dir, 'alertmanager.yml'),
          [
            'route:',
            '  receiver: test',
            '  group_by: [alertname]',
            '  group_wait: 0s',
            '  group_interval: 1s',
            '  repeat_interval: 1h',
            'receivers:',
            '  - name: test',
            '    webhook_configs:',
            `      - url: ${alerts.url}/alertmanager`,
            '        send_resolved: false',
          ].join('\n'),
        );
        const sink = new URL(sinkUrl);
        writeFileSync(
          join(dir, 'prometheus.yml'),
          [
            'global:',
            '  scrape_interval: 1s',
            '  evaluation_interval: 1s',
            'rule_files:',
            `  - ${join(dir, 'rules.yml')}`,
            'alerting:',
            '  alertmanagers:',
            '    - static_configs:',
            `        - targets: ['127.0.0.1:${amPort}']`,
            'scrape_configs:',
            '  - job_name: campaign-warehouse',
            '    static_configs:',
            `      - targets: ['${sink.host}']`,
          ].join('\n'),
        );
        const am = start('prometheus-alertmanager', [
          `--config.file=${join(dir, 'alertmanager.yml')}`,
          `--storage.path=${join(dir, 'am')}`,
          `--web.listen-address=127.0.0.1:${amPort}`,
          '--cluster.listen-address=',
        ]);
        const prom = start('prometheus', [
          `--config.file=${join(dir, 'prometheus.yml')}`,
          `--storage.tsdb.path=${join(dir, 'tsdb')}`,
          `--web.listen-address=127.0.0.1:${promPort}`,
        ]);
        const logs = () => `prometheus:\n${prom.log().slice(-1500)}\nalertmanager:\n${am.log().slice(-1500)}`;
        const alert = await until(
          'the alert at the webhook',
          async () => {
            for (const m of alerts.received) {
              const body = JSON.parse(m.body) as {
                alerts: { status: string; labels: Record<string, string> }[];
              };
              const found = body.alerts.find((a) => a.labels.alertname === 'CampaignWarehouseSyncFailed');
              if (found) return found;
            }
            return undefined;
          },
          logs,
        );
        expect(alert).toMatchObject({
          status: 'firing',
          labels: {
            alertname: 'CampaignWarehouseSyncFailed',
            severity: 'critical',
            job: 'campaign-warehouse',
          },
        });
      } finally {
        await alerts.close();
      }
    },
    180_000,
  );
});
