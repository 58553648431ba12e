/**
 * What a newcomer meets first, through the built CLI against the simulator on loopback: each
 * case is one a user typed, with the answer the tool now gives.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSimulator } from '../../src/simulator/start-simulator.js';
import { Database } from '../../src/state/sqlite-database.js';
import { ensureBuiltCli } from '../helpers/built-cli.js';
import { lines, loopbackSync, run, spawnCli } from '../helpers/run-cli.js';
import { SMALL, startSim } from '../helpers/sync-harness.js';
import { tempDir } from '../helpers/temp-dir.js';

const KEY = { CW_API_KEY: 'sim-key' };

describe('first contact', () => {
  let sim: RunningSimulator;
  const dir = tempDir('cw-frictions-');

  beforeAll(async () => {
    ensureBuiltCli();
    sim = await startSim({ size: { ...SMALL, campaigns: 2 } });
  }, 120_000);
  afterAll(async () => {
    await sim?.close();
  });

  it('a base URL that is not the API is one line saying what answered, without retries', async () => {
    let requests = 0;
    const page: Server = createServer((_req, res) => {
      requests++;
      res
        .writeHead(200, { 'content-type': 'text/html' })
        .end('<!doctype html><title>Welcome to nginx</title>');
    });
    await new Promise<void>((resolve) => page.listen(0, '127.0.0.1', resolve));
    const port = (page.address() as AddressInfo).port;
    try {
      const html = await run(['sync', '--force', '--data-dir', join(dir, 'html')], {
        ...KEY,
        CW_BASE_URL: `http://127.0.0.1:${port}`,
      });
      expect(html.code).toBe(1);
      expect(lines(html.stderr)).toEqual([
        expect.stringMatching(/CW_BASE_URL.* is not the API: it answered 200 OK with an HTML page/),
      ]);
      expect(requests).toBe(1);
      const tls = await run(['sync', '--force', '--data-dir', join(dir, 'tls')], {
        ...KEY,
        CW_BASE_URL: `https://127.0.0.1:${port}`,
      });
      expect(tls.code).toBe(1);
      expect(lines(tls.stderr)).toEqual([
        expect.stringMatching(/CW_BASE_URL.* says https:\/\/, but the server answered plain HTTP/),
      ]);
    } finally {
      page.close();
    }
  });

  it('a second sink on the same data directory is refused (exit 1, one line); a stale lock is taken over', async () => {
    const dataDir = join(dir, 'sinks');
    const first = spawnCli(['sink', '--data-dir', dataDir, '--port', '0'], { CW_LOG_LEVEL: 'info' });
    try {
      await first.stderrLine(/sink: listening/);
      const second = await run(['sink', '--data-dir', dataDir, '--port', '0']);
      expect(second.code).toBe(1);
      expect(lines(second.stderr)).toEqual([
        `campaign-warehouse: another sink (pid ${first.process.pid}) is running on the data directory ${dataDir}`,
      ]);
    } finally {
      first.process.kill('SIGKILL');
      await first.exited;
    }
    // Killed: its lock names a dead process, and the next sink starts.
    const next = spawnCli(['sink', '--data-dir', dataDir, '--port', '0'], { CW_LOG_LEVEL: 'info' });
    try {
      await next.stderrLine(/sink: listening/);
    } finally {
      next.process.kill('SIGTERM');
      expect(await next.exited).toBe(0);
    }
  });

  it('hooks searches lists the ids hooks create takes, as text or JSON', async () => {
    const args = ['hooks', 'searches', '--base-url', sim.url, '--data-dir', join(dir, 'searches')];
    const text = await run(args, KEY);
    expect(text.code).toBe(0);
    const expected = sim.hooks.searches();
    expect(expected.length).toBeGreaterThan(0);
    expect(lines(text.stdout).map((line) => line.split(/\s+/)[0])).toEqual(expected.map((s) => String(s.id)));
    const json = await run([...args, '--json'], KEY);
    expect(JSON.parse(json.stdout)).toEqual(expected.map((s) => ({ ...s })));
  });

  it('a second sync on a busy data directory is a runtime condition: exit 1, one line', async () => {
    const dataDir = join(dir, 'busy');
    const first = await run(loopbackSync(sim.url, dataDir), KEY);
    expect(first.code).toBe(0);
    // A live process (this test's) holds a running sync of the same data directory.
    const state = new Database(join(dataDir, 'state.sqlite'));
    try {
      state.prepare("update runs set status = 'running', pid = ?").run(process.pid);
    } finally {
      state.close();
    }
    const second = await run(loopbackSync(sim.url, dataDir), KEY);
    expect(second.code).toBe(1);
    expect(lines(second.stderr)).toEqual([
      expect.stringMatching(/another sync \(pid \d+, snapshot [\d-]+\) is running on this data directory$/),
    ]);
  }, 120_000);
});
