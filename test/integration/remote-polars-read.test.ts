/**
 * The remote lake's data files read by nodejs-polars: after two simulated days synced and a
 * sink batch published with a remote configured, each table's current snapshot is loaded as a
 * location-based reader does (version-hint.text, manifest list, manifests: avro-js), every data
 * file it lists is downloaded and read with `pl.readParquet`, and Polars' totals (rows, each
 * numeric column's sum) equal the local table's. Polars' native binary needs Node >= 22: on
 * older Node this file says it did not run (CI runs it on Node 24).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { followPublishes, type RemoteFollower } from '../../src/remote/index.js';
import type { RunningSimulator } from '../../src/simulator/start-simulator.js';
import { publishStream, TABLES } from '../../src/warehouse/index.js';
import { getObject, readSnapshotFiles } from '../helpers/iceberg-snapshot-files.js';
import { motoMissing } from '../helpers/moto-server.js';
import { loadPolars, polarsTotals } from '../helpers/polars-totals.js';
import { rows, startSim, sync, syncConfig, tempDataDir } from '../helpers/sync-harness.js';
import { tempDir } from '../helpers/temp-dir.js';
import { sampleStreamBatch } from '../helpers/warehouse-stream-rows.js';
import { withMoto } from '../helpers/with-moto.js';

const { polars, missing: polarsMissing } = await loadPolars();
const missing = motoMissing() ?? polarsMissing;
if (missing) console.warn(`remote-polars-read: did not run: ${missing}`);

/** The numeric columns DuckDB sums as Polars does (BIGINT, INTEGER, DOUBLE…). */
const NUMERIC = /^(BIGINT|INTEGER|SMALLINT|TINYINT|UBIGINT|UINTEGER|DOUBLE|FLOAT|REAL|HUGEINT)$/i;

describe.skipIf(missing)('the remote lake read by nodejs-polars', () => {
  const moto = withMoto({ publicRead: true });
  let sim: RunningSimulator;
  let follower: RemoteFollower;
  const dataDir = tempDataDir();
  const downloads = tempDir('cw-polars-');

  beforeAll(async () => {
    follower = followPublishes(moto.remote('pl'), (failure) => {
      throw failure;
    });
    sim = await startSim();
    await sync(sim, syncConfig(sim, dataDir));
    sim.clock.advance(86_400_000);
    await sync(sim, syncConfig(sim, dataDir));
    await publishStream(dataDir, sampleStreamBatch());
    expect(follower.failure).toBeUndefined();
  }, 240_000);

  afterAll(async () => {
    await follower?.detach();
    await sim?.close();
  });

  it.each(Object.keys(TABLES))(
    '%s: Polars’ totals of the listed files equal the local table’s',
    async (table) => {
      const [{ n }] = (await rows(dataDir, `select count(*) as n from ${table}`)) as [{ n: unknown }];
      const snapshot = await readSnapshotFiles(moto.url, `s3://lake/pl/${table}`);
      if (Number(n) === 0) {
        expect(snapshot.files.reduce((total, f) => total + f.records, 0)).toBe(0);
        return;
      }
      const files: string[] = [];
      for (const [i, file] of snapshot.files.entries()) {
        const bytes = await getObject(moto.url, file.path);
        expect(bytes, file.path).toBeDefined();
        const path = join(downloads, `${table}-${i}.parquet`);
        writeFileSync(path, bytes!);
        files.push(path);
      }
      const read = polarsTotals(polars!, files);
      expect(read.rowsPerFile).toEqual(snapshot.files.map((f) => f.records));
      expect(read.rows).toBe(Number(n));

      const columns = (
        await rows(
          dataDir,
          "select column_name as name, data_type as type from information_schema.columns where table_schema = 'main' and table_name = ?",
          [table],
        )
      ).filter((c) => NUMERIC.test(String(c.type))) as { name: string }[];
      if (columns.length === 0) return;
      const [local] = await rows(
        dataDir,
        `select ${columns.map((c) => `coalesce(sum("${c.name}"), 0)::double as "${c.name}"`).join(', ')} from ${table}`,
      );
      for (const { name } of columns) {
        const expected = Number(local![name]);
        const got = read.sums[name] ?? 0;
        expect(Math.abs(got - expected), `${table}.${name}: ${got} against ${expected}`).toBeLessThanOrEqual(
          1e-9 * Math.max(1, Math.abs(expected)),
        );
      }
    },
  );
});
