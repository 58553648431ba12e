/**
 * `campaign-warehouse remote push` (the built CLI) on a data directory with a history and no
 * remote so far: it commits every table, each distinct file uploaded once (a file hard-linked
 * into several versions included), and a rerun commits nothing. A later day is caught up by
 * the next push. A bad remote is a usage error at start.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { liveFiles } from '../../src/remote/commit-table.js';
import { openStore, type RemoteConfig, readRemoteTable, TablePaths } from '../../src/remote/index.js';
import type { S3Store } from '../../src/remote/s3-store.js';
import type { RunningSimulator } from '../../src/simulator/start-simulator.js';
import { describeLakeFiles, publishStream } from '../../src/warehouse/index.js';
import { MOTO_ENV, motoMissing } from '../helpers/moto-server.js';
import { lines, run } from '../helpers/run-cli.js';
import { rows, startSim, sync, syncConfig, tempDataDir } from '../helpers/sync-harness.js';
import { sampleStreamBatch } from '../helpers/warehouse-stream-rows.js';
import { withMoto } from '../helpers/with-moto.js';

const missing = motoMissing();
if (missing) console.warn(`remote-push: did not run: ${missing}`);

describe.skipIf(missing)('remote push', () => {
  const moto = withMoto();
  let sim: RunningSimulator;
  let store: S3Store;
  let remote: RemoteConfig;
  const dataDir = tempDataDir();
  const env = () => ({ ...MOTO_ENV, AWS_ENDPOINT_URL_S3: moto.url });

  beforeAll(async () => {
    remote = moto.remote('hist');
    store = await openStore(remote);
    sim = await startSim();
    for (let day = 0; day < 3; day += 1) {
      if (day > 0) sim.clock.advance(86_400_000);
      await sync(sim, syncConfig(sim, dataDir));
    }
    await publishStream(dataDir, sampleStreamBatch());
  }, 240_000);

  afterAll(async () => {
    await sim?.close();
  });

  async function remoteState() {
    const out = new Map<string, { version: number; files: Set<string>; rows: number }>();
    for (const { table } of await describeLakeFiles(dataDir)) {
      const paths = new TablePaths(remote, table.name);
      const found = await readRemoteTable(store, paths);
      const live = [...liveFiles(found.manifests).values()];
      out.set(table.name, {
        version: found.version,
        files: new Set(live.map((e) => e.file.path)),
        rows: live.reduce((n, e) => n + e.file.rows, 0),
      });
    }
    return out;
  }

  async function dataObjects(table: string): Promise<string[]> {
    return (await store.list(`hist/${table}/data/`)).map((o) => `s3://lake/${o.key}`);
  }

  it('uploads a whole history once, and a rerun commits nothing', async () => {
    const first = await run(['remote', 'push', '--data-dir', dataDir, '--remote', 's3://lake/hist'], env(), {
      timeoutMs: 240_000,
    });
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(lines(first.stdout).at(-1)).toMatch(/^remote s3:\/\/lake\/hist: \d+ tables committed/);
    const lake = await describeLakeFiles(dataDir);
    const state = await remoteState();
    for (const { table, files } of lake) {
      const [local] = await rows(dataDir, `select count(*) as n from ${table.name}`);
      const found = state.get(table.name)!;
      expect(found.files.size, table.name).toBe(files.length);
      expect(found.rows, table.name).toBe(Number(local!.n));
      // Each distinct local file is one object: no file twice, nothing else under data/.
      expect(new Set(await dataObjects(table.name)), table.name).toEqual(found.files);
    }

    const again = await run(
      ['remote', 'push', '--data-dir', dataDir],
      { ...env(), CW_REMOTE: 's3://lake/hist' },
      {
        timeoutMs: 120_000,
      },
    );
    expect(again.code).toBe(0);
    expect(lines(again.stdout)).toHaveLength(1);
    expect(lines(again.stdout)[0]).toMatch(/^remote s3:\/\/lake\/hist: already current, nothing committed/);
    const after = await remoteState();
    for (const [table, found] of after) expect(found.version, table).toBe(state.get(table)!.version);
  }, 300_000);

  it('catches up a day published without the remote', async () => {
    const before = await remoteState();
    sim.clock.advance(86_400_000);
    await sync(sim, syncConfig(sim, dataDir));
    const push = await run(
      ['remote', 'push', '--data-dir', dataDir, '--remote', 's3://lake/hist', '--json'],
      env(),
      {
        timeoutMs: 240_000,
      },
    );
    expect(push.code).toBe(0);
    const result = JSON.parse(push.stdout) as {
      commits: { table: string; operation: string; version: number }[];
    };
    const tables = result.commits.map((c) => c.table);
    expect(tables).toContain('post_metrics');
    expect(tables).not.toContain('stream_documents');
    for (const commit of result.commits) {
      expect(commit.version).toBe(before.get(commit.table)!.version + 1);
      expect(['append', 'overwrite', 'replace', 'delete']).toContain(commit.operation);
    }
    expect(result.commits.find((c) => c.table === 'post_metrics')!.operation).toBe('append');
    const after = await remoteState();
    for (const { table, files } of await describeLakeFiles(dataDir)) {
      expect(after.get(table.name)!.files.size, table.name).toBe(files.length);
      const [local] = await rows(dataDir, `select count(*) as n from ${table.name}`);
      expect(after.get(table.name)!.rows, table.name).toBe(Number(local!.n));
    }
  }, 300_000);

  it.each([
    [['--remote', 'http://lake/hist'], /not an s3:\/\/ URL/],
    [['--remote', 's3:///hist'], /names no bucket/],
    [['--remote', 's3://Lake_Bucket/x'], /not an S3 bucket name/],
    [[], /no remote: pass --remote/],
  ])('refuses %j at start with exit 2 and one line', async (args, message) => {
    const result = await run(['remote', 'push', '--data-dir', dataDir, ...args], env());
    expect(result.code).toBe(2);
    expect(lines(result.stderr)).toHaveLength(1);
    expect(result.stderr).toMatch(message);
  });

  it('refuses plain http to a public endpoint at start', async () => {
    const result = await run(['remote', 'push', '--data-dir', dataDir, '--remote', 's3://lake/hist'], {
      ...env(),
      AWS_ENDPOINT_URL_S3: 'http://s3.example.com',
    });
    expect(result.code).toBe(2);
    expect(lines(result.stderr)).toHaveLength(1);
    expect(result.stderr).toMatch(/AWS_ENDPOINT_URL_S3 .* must use https/);
  });
});
