/**
 * One data directory for every command: the config file's dataDir (file named by --config or
 * CW_CONFIG) is where sync writes and where status, query, report, catalog rebuild and sink
 * look, run from a directory with no ./data; a flag or CW_DATA_DIR still wins over the file.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSimulator } from '../../src/simulator/start-simulator.js';
import { BUILT_CLI } from '../../src/util/built-cli.js';
import { ensureBuiltCli } from '../helpers/built-cli.js';
import { LOOPBACK_RPS, lines, run } from '../helpers/run-cli.js';
import { SMALL, startSim } from '../helpers/sync-harness.js';
import { tempDir } from '../helpers/temp-dir.js';

describe('--config / CW_CONFIG: the file’s dataDir for every command', () => {
  let sim: RunningSimulator;
  const root = tempDir('cw-config-file-');
  const cwd = join(root, 'elsewhere'); // no ./data here: a command reading ./data finds nothing
  const dataDir = join(root, 'from-config');
  const file = join(root, 'cw.json');

  beforeAll(async () => {
    ensureBuiltCli();
    sim = await startSim({ size: { ...SMALL, campaigns: 2 } });
    mkdirSync(cwd);
    writeFileSync(file, JSON.stringify({ baseUrl: sim.url, dataDir }));
    const synced = await run(
      ['sync', '--force', '--json', ...LOOPBACK_RPS],
      { CW_API_KEY: 'sim-key', CW_CONFIG: file },
      { cwd },
    );
    expect(synced.code, synced.stderr).toBe(0);
  }, 120_000);
  afterAll(async () => {
    await sim?.close();
  });

  it('status, query, report and catalog rebuild read it, by flag and by environment', async () => {
    expect(existsSync(join(dataDir, 'warehouse.duckdb'))).toBe(true);
    for (const [args, env] of [
      [['--config', file], {}],
      [[], { CW_CONFIG: file }],
    ] as const) {
      const status = await run(['status', '--json', ...args], env, { cwd });
      expect(status.code, status.stderr).toBe(0);
      expect(JSON.parse(status.stdout).runs[0]).toMatchObject({ status: 'succeeded' });
      const query = await run(
        ['query', '--format', 'csv', 'select count(*) as n from campaigns', ...args],
        env,
        { cwd },
      );
      expect(query.code, query.stderr).toBe(0);
      expect(lines(query.stdout)).toEqual(['n', '2']);
      const report = await run(['report', ...args], env, { cwd });
      expect(report.code, report.stderr).toBe(0);
      expect(report.stdout.trim()).toBe(join(dataDir, 'report.html'));
      const rebuilt = await run(['catalog', 'rebuild', ...args], env, { cwd });
      expect(rebuilt.code, rebuilt.stderr).toBe(0);
      expect(rebuilt.stdout).toContain(join(dataDir, 'warehouse.duckdb'));
    }
    expect(existsSync(join(cwd, 'data'))).toBe(false);
  }, 120_000);

  it('a flag or CW_DATA_DIR wins over the file', async () => {
    const empty = join(root, 'empty');
    for (const [args, env] of [
      [['--data-dir', empty, '--config', file], {}],
      [['--config', file], { CW_DATA_DIR: empty }],
    ] as const) {
      const status = await run(['status', '--json', ...args], env, { cwd });
      expect(status.code, status.stderr).toBe(0);
      expect(JSON.parse(status.stdout).runs).toEqual([]);
    }
  }, 60_000);

  it('sink listens on the data directory of the file (where hooks create keeps the secrets)', async () => {
    const sink = spawn(process.execPath, [BUILT_CLI, 'sink', '--port', '0'], {
      cwd,
      env: { ...process.env, CW_CONFIG: file, CW_LOG_LEVEL: 'info' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let log = '';
    sink.stderr.setEncoding('utf8').on('data', (text: string) => {
      log += text;
    });
    const exited = new Promise<number | null>((resolve) => sink.once('exit', resolve));
    for (let i = 0; i < 400 && !log.includes('sink: listening'); i++)
      await new Promise((r) => setTimeout(r, 25));
    sink.kill('SIGTERM');
    expect(await exited).toBe(0);
    const starting = lines(log)
      .map((line) => JSON.parse(line) as { msg: string; dataDir?: string })
      .find((line) => line.msg === 'sink: starting');
    expect(starting?.dataDir).toBe(dataDir);
  }, 60_000);
});
