/**
 * A reader of the remote lake never sees a partial publish: while a data directory publishes
 * again and again (new days, a day re-run with fewer rows, the upkeep's consolidation, stream
 * parts merging), each publish followed by its remote commit, a reader loads the tables in a
 * loop as a location-based engine does (by version-hint.text, and by the newest metadata file),
 * reading the manifest list and manifests with avro-js. Every snapshot it loads lists only
 * files that are there, no file twice, and exactly the rows the local table held after one of
 * its publishes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { followPublishes, type RemoteFollower } from '../../src/remote/index.js';
import { maintainLake, publishStream, setAfterPublish } from '../../src/warehouse/index.js';
import { httpUrl, readSnapshotFiles } from '../helpers/iceberg-snapshot-files.js';
import { motoMissing } from '../helpers/moto-server.js';
import { documentsBatch } from '../helpers/remote-batches.js';
import { rows, tempDataDir } from '../helpers/sync-harness.js';
import { stageAndPublish } from '../helpers/warehouse-temp.js';
import { withMoto } from '../helpers/with-moto.js';

const missing = motoMissing();
if (missing) console.warn(`remote-reader-during-publish: did not run: ${missing}`);

const WATCHED = ['campaign_metrics', 'post_metrics', 'stream_documents'] as const;
type Watched = (typeof WATCHED)[number];

interface Observation {
  readonly table: Watched;
  readonly how: 'hint' | 'newest';
  readonly version: number;
  readonly rows: number;
  readonly totalRecords: number | undefined;
  readonly paths: readonly string[];
  /** Listed files the store did not have. */
  readonly missingFiles: readonly string[];
}

describe.skipIf(missing)('a reader loading the remote tables while publishes commit', () => {
  const moto = withMoto({ publicRead: true });
  const dataDir = tempDataDir();
  const today = new Date().toISOString().slice(0, 10);
  let follower: RemoteFollower;
  const failures: string[] = [];
  /** Per table: its row count after each local publish (0: before the first). */
  const published = new Map<Watched, Set<number>>(WATCHED.map((t) => [t, new Set([0])]));

  const localCount = async (table: Watched) =>
    Number((await rows(dataDir, `select count(*) as n from ${table}`))[0]!.n);

  beforeAll(() => {
    follower = followPublishes(moto.remote('watch'), (failure) => failures.push(failure.message));
    // Before each publish's commit: note the local table's rows as that publish left them.
    const commit = setAfterPublish(async (dir) => {
      for (const table of WATCHED) published.get(table)!.add(await localCount(table));
      await commit?.(dir);
    });
  });

  afterAll(async () => {
    await follower?.detach();
    setAfterPublish(undefined);
  });

  /** One load of a table, and whether each file it lists is in the store. */
  async function observe(table: Watched, how: 'hint' | 'newest'): Promise<Observation> {
    const snapshot = await readSnapshotFiles(moto.url, `s3://lake/watch/${table}`, how);
    const missingFiles: string[] = [];
    for (const file of snapshot.files) {
      // Its first bytes, Parquet's magic (moto refuses anonymous HEAD requests).
      const reply = await fetch(httpUrl(moto.url, file.path), { headers: { range: 'bytes=0-3' } });
      const magic = reply.ok ? Buffer.from(await reply.arrayBuffer()).toString() : '';
      if (magic !== 'PAR1') missingFiles.push(file.path);
    }
    return {
      table,
      how,
      version: snapshot.version,
      rows: snapshot.files.reduce((n, f) => n + f.records, 0),
      totalRecords: snapshot.totalRecords,
      paths: snapshot.files.map((f) => f.path),
      missingFiles,
    };
  }

  it('sees only whole publishes, from the first to the last', async () => {
    const seen: Observation[] = [];
    let publishing = true;
    let firstRound: () => void = () => {};
    const roundDone = new Promise<void>((resolve) => {
      firstRound = resolve;
    });
    // Rounds until one begun after the last publish's commit: the last loads are the final state.
    const reader = (async () => {
      for (;;) {
        const last = !publishing;
        for (const table of WATCHED)
          for (const how of ['hint', 'newest'] as const) seen.push(await observe(table, how));
        firstRound();
        if (last) return;
      }
    })();
    await roundDone;

    const segments = ['all', 'vip'];
    const campaigns = (n: number) => Array.from({ length: n }, (_, i) => `c${i + 1}`);
    let batch = 0;
    const documents = async (count: number) => {
      batch += 1;
      const at = `${today}T${String(8 + batch).padStart(2, '0')}:00:00Z`;
      await publishStream(dataDir, documentsBatch(`rd${batch}`, count, at), { mergeFanout: 2 });
    };
    try {
      await stageAndPublish(dataDir, '2026-10-29', segments, { campaigns: campaigns(1) });
      await documents(3);
      await stageAndPublish(dataDir, '2026-10-30', segments, { runId: 'r2', campaigns: campaigns(2) });
      await documents(2);
      await stageAndPublish(dataDir, '2026-10-31', segments, { runId: 'r3', campaigns: campaigns(3) });
      await documents(4);
      await stageAndPublish(dataDir, '2026-11-01', segments, { runId: 'r4', campaigns: campaigns(4) });
      // A day re-run with fewer rows: its files replaced (an overwrite that shrinks the table).
      await stageAndPublish(dataDir, '2026-11-01', segments, { runId: 'r5', campaigns: campaigns(2) });
      await documents(1);
      // The upkeep: closed periods consolidated, today's stream parts merged (a replace).
      await maintainLake(dataDir);
      await stageAndPublish(dataDir, '2026-11-02', segments, { runId: 'r6', campaigns: campaigns(3) });
    } finally {
      publishing = false;
      await reader;
    }
    expect(failures).toEqual([]);

    for (const o of seen) {
      const label = `${o.table} v${o.version} by ${o.how}`;
      expect(o.missingFiles, label).toEqual([]);
      expect(new Set(o.paths).size, label).toBe(o.paths.length);
      if (o.version > 0) expect(o.totalRecords, label).toBe(o.rows);
      expect([...published.get(o.table)!], label).toContain(o.rows);
    }
    for (const table of WATCHED) {
      const ofTable = seen.filter((o) => o.table === table);
      // A version always reads the same (a metadata file is never rewritten).
      const byVersion = new Map<number, number>();
      for (const o of ofTable) {
        expect(byVersion.get(o.version) ?? o.rows, `${table} v${o.version}`).toBe(o.rows);
        byVersion.set(o.version, o.rows);
      }
      // The first round loaded no table yet, the last one the final state.
      expect(ofTable[0]!.version, table).toBe(0);
      const final = ofTable.slice(-2);
      const local = await localCount(table);
      for (const o of final) expect(o.rows, `${table} by ${o.how} at the end`).toBe(local);
      expect(final[0]!.version, table).toBe(final[1]!.version);
      expect(published.get(table)!.size, table).toBeGreaterThan(2);
    }
  }, 400_000);
});
