/**
 * How far the remote lags the local lake (src/remote/remote-lag.ts), from a real lake's links
 * and a state file as a commit leaves it (no store needed): a table is behind when this data
 * directory's files in the remote's snapshot are not exactly its live files with rows; other
 * writers' files never count, an empty file (never uploaded) neither, a file the remote still
 * lists that the lake no longer has does.
 */
import { readdirSync, readlinkSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { describe, expect, it } from 'vitest';
import type { RemoteTable } from '../../src/remote/index.js';
import { remoteLag, TablePaths } from '../../src/remote/index.js';
import { saveState, writerId } from '../../src/remote/remote-state.js';
import { liveLakeFiles, publishStream } from '../../src/warehouse/index.js';
import { documentsBatch } from '../helpers/remote-batches.js';
import { tempDataDir } from '../helpers/sync-harness.js';

const URL = 's3://lake/lag';
const REMOTE = { url: URL, bucket: 'lake', prefix: 'lag/' };
const COMMITTED_AT = Date.parse('2026-11-28T06:00:00Z');

/** A remote table whose current snapshot lists `uris` (what a commit leaves in the state file). */
function committed(uris: readonly string[]): RemoteTable {
  const entry = (path: string) => ({
    status: 1,
    snapshotId: 7,
    sequenceNumber: 1,
    fileSequenceNumber: 1,
    file: { path, rows: 1, bytes: 1, partition: {}, lower: {}, upper: {} },
  });
  return {
    version: 3,
    metadata: {
      'current-snapshot-id': 7,
      snapshots: [{ 'snapshot-id': 7, 'timestamp-ms': COMMITTED_AT }],
    },
    manifests: [{ file: {}, entries: uris.map(entry) }],
  } as unknown as RemoteTable;
}

describe('remoteLag', () => {
  it('says which tables lag, from the state file and the lake alone', async () => {
    const dataDir = tempDataDir();
    const today = new Date().toISOString().slice(0, 10);
    await publishStream(dataDir, documentsBatch('a', 3, `${today}T08:00:00Z`));
    const writer = writerId(dataDir);
    const lake = await liveLakeFiles(dataDir);
    const uris = (table: string) => {
      const paths = new TablePaths(REMOTE, table);
      return lake.find((t) => t.table === table)!.files.map((f) => paths.uri(paths.dataKey(f.place, writer)));
    };
    const documents = new TablePaths(REMOTE, 'stream_documents');
    const other = documents.uri(documents.dataKey(`received_date=${today}/p.other.parquet`, 'w999999999999'));
    const save = (tables: Record<string, RemoteTable>) => saveState(dataDir, URL, { tables });

    // Committed whole, with another writer's file beside this one's: current.
    save({
      stream_documents: committed([...uris('stream_documents'), other]),
      stream_deliveries: committed(uris('stream_deliveries')),
    });
    let lag = await remoteLag(dataDir, URL);
    expect(lag.tables.map((t) => t.table)).toEqual(['stream_documents', 'stream_deliveries']);
    for (const t of lag.tables)
      expect(t).toEqual({
        table: t.table,
        version: 3,
        snapshotId: 7,
        committedAt: COMMITTED_AT,
        behind: false,
        notCommitted: 0,
        notRemoved: 0,
        behindSince: undefined,
      });

    // An empty file in the live version (never uploaded): still current.
    const day = join(dataDir, 'lake', 'stream_documents', `received_date=${today}`);
    const version = resolve(dirname(day), readlinkSync(day));
    const instance = await DuckDBInstance.create(':memory:');
    const connection = await instance.connect();
    await connection.run(
      `copy (select 1 as a where false) to '${join(version, 'p.0miiol4ddabcdef.parquet')}' (format parquet)`,
    );
    connection.closeSync();
    instance.closeSync();
    expect(readdirSync(version)).toContain('p.0miiol4ddabcdef.parquet');
    lag = await remoteLag(dataDir, URL);
    expect(lag.tables.find((t) => t.table === 'stream_documents')!.behind).toBe(false);

    // A file of this writer's that the lake no longer has: behind, to remove; one the remote
    // lacks: behind since the publish that wrote it.
    const gone = documents.uri(documents.dataKey(`received_date=${today}/p.0miiol4ddaaaaaa.parquet`, writer));
    save({
      stream_documents: committed([...uris('stream_documents'), gone]),
      stream_deliveries: committed([]),
    });
    const before = Date.now();
    lag = await remoteLag(dataDir, URL);
    const [docs, deliveries] = lag.tables;
    expect(docs).toMatchObject({ behind: true, notCommitted: 0, notRemoved: 1 });
    expect(docs!.behindSince).toBeLessThanOrEqual(before);
    expect(deliveries).toMatchObject({ behind: true, notCommitted: 1, notRemoved: 0 });
    const published = lake.find((t) => t.table === 'stream_deliveries')!.files[0]!.writtenAt!;
    expect(deliveries!.behindSince).toBe(published);
    expect(published).toBeGreaterThan(before - 600_000);

    // Never committed (no state file for this remote): every table with files lags, version 0.
    lag = await remoteLag(dataDir, 's3://lake/elsewhere');
    for (const t of lag.tables)
      expect(t).toMatchObject({ version: 0, snapshotId: undefined, committedAt: undefined, behind: true });
  });
});
