/**
 * The shipped Prometheus rules (docs/alerts/campaign-warehouse.rules.yml) are valid and pass
 * their unit tests (campaign-warehouse.rules.test.yml) under Debian's promtool, and every
 * metric they use is one /metrics exposes. Without promtool this test says so and does not
 * run (CI installs it: .ci/run).
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSink, startSink } from '../../src/sink/start-sink.js';
import { packageRoot } from '../../src/util/package-root.js';
import { commandMissing } from '../helpers/command-missing.js';
import { tempDir } from '../helpers/temp-dir.js';

const ALERTS = join(packageRoot(), 'docs', 'alerts');
const RULES = join(ALERTS, 'campaign-warehouse.rules.yml');
const missing = commandMissing('promtool', 'prometheus');
if (missing) console.warn(`alert-rules.test.ts did NOT run promtool: ${missing}`);

describe.skipIf(missing !== undefined)('alert rules under promtool', () => {
  it('are valid rules', async () => {
    const { stdout } = await promisify(execFile)('promtool', ['check', 'rules', RULES]);
    expect(stdout).toMatch(/SUCCESS: 9 rules found/);
  });

  it('pass their unit tests', async () => {
    const { stdout } = await promisify(execFile)(
      'promtool',
      ['test', 'rules', 'campaign-warehouse.rules.test.yml'],
      {
        cwd: ALERTS,
      },
    );
    expect(stdout).toMatch(/SUCCESS/);
  });
});

describe('alert rules and /metrics', () => {
  let sink: RunningSink;
  beforeAll(async () => {
    sink = await startSink({ dataDir: tempDir('cw-rules-'), port: 0, logger: pino({ level: 'silent' }) });
  });
  afterAll(() => sink.close());

  it('use only metrics the sink exposes', async () => {
    const exposed = new Set(
      [...(await (await fetch(`${sink.url}/metrics`)).text()).matchAll(/^# TYPE (\S+) /gm)].map((m) => m[1]),
    );
    const used = [...readFileSync(RULES, 'utf8').matchAll(/\b((?:cw|sink)_[a-z_]+)/g)].map((m) => m[1]!);
    expect(used.length).toBeGreaterThan(5);
    for (const name of new Set(used)) expect(exposed, name).toContain(name);
  });
});
