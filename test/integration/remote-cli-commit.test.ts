/**
 * The commit after each publish, through the built CLI as a user runs it (AWS_ENDPOINT_URL_S3
 * and credentials in the environment, `--remote` on the command line): a `sync` against the
 * simulator commits every table it published, each remote table holding the local rows; a
 * `sink` receiving signed deliveries commits stream_documents after its publish, while it runs
 * and at its last publish when stopped.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSimulator } from '../../src/simulator/start-simulator.js';
import { describeLakeFiles } from '../../src/warehouse/index.js';
import { icebergRows, rowSet, withFetchTo } from '../helpers/iceberg-rows.js';
import { readSnapshotFiles } from '../helpers/iceberg-snapshot-files.js';
import { MOTO_ENV, motoMissing } from '../helpers/moto-server.js';
import { lines, loopbackSync, run } from '../helpers/run-cli.js';
import { spawnSinkCli } from '../helpers/sink-child.js';
import { deliveryBody, insertHook, postDelivery, sampleDocument } from '../helpers/sink-fixtures.js';
import { rows, SMALL, startSim, tempDataDir } from '../helpers/sync-harness.js';
import { withMoto } from '../helpers/with-moto.js';

const missing = motoMissing();
if (missing) console.warn(`remote-cli-commit: did not run: ${missing}`);

describe.skipIf(missing)('the remote commit after the CLI’s publishes', () => {
  const moto = withMoto({ publicRead: true });
  let sim: RunningSimulator;
  /** The CLI's environment: the SDK's own endpoint variable and dummy credentials. */
  const env = () => ({ ...MOTO_ENV, AWS_ENDPOINT_URL_S3: moto.url });

  beforeAll(async () => {
    sim = await startSim({ size: { ...SMALL, campaigns: 3 } });
  }, 120_000);

  afterAll(async () => {
    await sim?.close();
  });

  /** Each table's current snapshot by version-hint.text: its version and rows. */
  async function remoteRows(prefix: string, table: string) {
    const snapshot = await readSnapshotFiles(moto.url, `s3://lake/${prefix}/${table}`);
    const paths = snapshot.files.map((f) => f.path);
    expect(new Set(paths).size, `${table}: no file listed twice`).toBe(paths.length);
    return { version: snapshot.version, rows: snapshot.files.reduce((n, f) => n + f.records, 0) };
  }

  it('sync --remote commits every table it published', async () => {
    const dataDir = tempDataDir();
    const synced = await run(
      loopbackSync(sim.url, dataDir, '--snapshot-date', '2026-11-20', '--remote', 's3://lake/cli-sync'),
      { CW_API_KEY: 'sim-key', ...env() },
      { timeoutMs: 240_000 },
    );
    expect(synced.code, synced.stderr).toBe(0);
    expect(synced.stderr).not.toMatch(/remote s3:\/\//);

    let committed = 0;
    for (const { table } of await describeLakeFiles(dataDir)) {
      const [local] = await rows(dataDir, `select count(*) as n from ${table.name}`);
      const remote = await remoteRows('cli-sync', table.name);
      if (Number(local!.n) === 0) {
        expect(remote.rows, table.name).toBe(0);
        continue;
      }
      expect(remote.version, table.name).toBeGreaterThan(0);
      expect(remote.rows, table.name).toBe(Number(local!.n));
      committed += 1;
    }
    for (const table of ['campaign_metrics', 'post_metrics', 'posts', 'sync_runs'])
      expect((await remoteRows('cli-sync', table)).version, table).toBeGreaterThan(0);
    expect(committed).toBeGreaterThan(10);
  }, 300_000);

  it('sink --remote commits stream_documents after its publishes', async () => {
    const dataDir = tempDataDir();
    const hook = insertHook(dataDir);
    const sink = await spawnSinkCli(
      dataDir,
      ['--publish-interval', '0.2', '--remote', 's3://lake/cli-sink'],
      env(),
    );
    const send = async (from: number, count: number) => {
      const documents = Array.from({ length: count }, (_, i) => sampleDocument(`doc-${from + i}`));
      expect(await postDelivery(sink.url, hook, deliveryBody(hook, documents))).toBe(200);
    };
    try {
      await send(0, 3);
      await send(3, 2);
      // While it runs: the publish of these deliveries is followed by its commit.
      let remote = await remoteRows('cli-sink', 'stream_documents');
      for (const deadline = Date.now() + 120_000; remote.rows < 5 && Date.now() < deadline; ) {
        await new Promise((resolve) => setTimeout(resolve, 200));
        remote = await remoteRows('cli-sink', 'stream_documents');
      }
      expect(remote.rows).toBe(5);
      await send(5, 4);
    } finally {
      sink.process.kill('SIGTERM');
    }
    // Stopped: its last publish, and that publish's commit, before it exits.
    expect(await sink.exited, sink.stderr()).toBe(0);
    expect(lines(sink.stderr()).filter((line) => line.includes('remote commit failed'))).toEqual([]);
    const local = await rows(dataDir, 'select * from stream_documents');
    expect(local).toHaveLength(9);
    expect((await remoteRows('cli-sink', 'stream_documents')).rows).toBe(9);
    const columns = Object.keys(local[0]!);
    const remoteRowsRead = await withFetchTo(moto.url, () =>
      icebergRows('s3://lake/cli-sink/stream_documents'),
    );
    expect(rowSet(remoteRowsRead, columns)).toEqual(rowSet(local, columns));
    const [deliveries] = await rows(dataDir, 'select count(*) as n from stream_deliveries');
    expect((await remoteRows('cli-sink', 'stream_deliveries')).rows).toBe(Number(deliveries!.n));
  }, 300_000);
});
