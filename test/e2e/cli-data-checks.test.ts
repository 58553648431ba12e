/**
 * Data checks as a user meets them: `simulate --inconsistent` in a process of its own,
 * `sync` refusing to publish under "checks": "strict" and --strict, then publishing with
 * warnings, and `status` naming the failing check and campaign.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listDataChecks } from '../../src/warehouse/checks/run-data-checks.js';
import { ensureBuiltCli } from '../helpers/built-cli.js';
import { loopbackSync } from '../helpers/run-cli.js';
import { tempDataDir } from '../helpers/sync-harness.js';

let cli: string;
let simulator: ChildProcess | undefined;
let baseUrl: string;

function run(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('CW_')));
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [cli, ...args],
      { env: { ...clean, CW_API_KEY: 'sim-key', CW_LOG_LEVEL: 'info' }, timeout: 60_000 },
      (error, stdout, stderr) =>
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr }),
    );
  });
}

beforeAll(async () => {
  cli = ensureBuiltCli();
  const args = ['simulate', '--port', '0', '--campaigns', '3', '--posts-per-campaign', '20'];
  args.push('--start-time', '2026-11-20T22:30:00Z', '--inconsistent', '5001:num_posts-2');
  simulator = spawn(process.execPath, [cli, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  baseUrl = await new Promise<string>((resolve, reject) => {
    let out = '';
    simulator!.stdout!.setEncoding('utf8').on('data', (text: string) => {
      out += text;
      const match = /listening on (\S+)/.exec(out);
      if (match) resolve(match[1]!);
    });
    simulator!.once('exit', (code) => reject(new Error(`simulate exited with ${code}: ${out}`)));
  });
}, 120_000);
afterAll(() => {
  simulator?.kill('SIGTERM');
});

describe('data checks through the CLI', () => {
  it('strict runs stop before the publish in one line; a default run publishes and status names the check', async () => {
    const dataDir = tempDataDir();
    const config = join(dataDir, 'cw.json');
    writeFileSync(config, JSON.stringify({ checks: 'strict' }));
    const sync = loopbackSync(baseUrl, dataDir, '--snapshot-date', '2026-11-20', '--json');

    for (const strict of [['--config', config], ['--strict']]) {
      const { code, stderr } = await run([...sync, ...strict]);
      expect(code).toBe(1);
      const errors = stderr.split('\n').filter((line) => line.startsWith('campaign-warehouse:'));
      expect(errors).toEqual([
        'campaign-warehouse: data checks failed (strict), nothing published: campaign_posts_counted (all: 1 campaign(s): 5001); network_posts_add_up (all: 1 campaign(s): 5001)',
      ]);
    }
    const nothing = await run([
      'query',
      '--data-dir',
      dataDir,
      '--format',
      'csv',
      'select count(*) from campaign_metrics',
    ]);
    expect(nothing.stdout.trim().split('\n').at(-1)).toBe('0');

    const published = await run(sync);
    expect(published.code).toBe(0);
    const summary = JSON.parse(published.stdout.trim().split('\n').at(-1)!);
    expect(summary.checks.failed.map((f: { check: string }) => f.check)).toEqual([
      'campaign_posts_counted',
      'network_posts_add_up',
    ]);
    const log = published.stderr
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line));
    expect(log.find((l) => l.check === 'campaign_posts_counted')).toMatchObject({
      level: 40,
      campaigns: ['5001'],
    });

    const status = await run(['status', '--data-dir', dataDir]);
    expect(status.stdout).toContain('data checks (snapshot 2026-11-20, run ');
    expect(status.stdout).toContain(
      `warn): 2 of ${listDataChecks().length} FAILED: campaign_posts_counted (all: 1 campaign(s): 5001)`,
    );

    const bad = writeConfig(dataDir, { checks: 'loud' });
    const refused = await run([...sync, '--config', bad]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/^campaign-warehouse: config file .*: checks: /m);
  });

  it('simulate refuses a malformed --inconsistent naming the item', async () => {
    const { code, stderr } = await run(['simulate', '--inconsistent', '5001:num_posts*2']);
    expect(code).not.toBe(0);
    expect(stderr).toContain('"5001:num_posts*2" is not <campaignId>:num_posts+N');
  });
});

function writeConfig(dir: string, content: unknown): string {
  const file = join(dir, 'bad.json');
  writeFileSync(file, JSON.stringify(content));
  return file;
}
