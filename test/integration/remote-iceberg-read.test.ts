/**
 * The remote lake read by other implementations: after syncs (and sink publishes) with a
 * remote configured, icebird reads each table's current snapshot, and an earlier one, from
 * moto's S3, and gets the local catalog's rows; avro-js (not the writer's Avro library) reads
 * every manifest list and manifest, checked against the Iceberg spec's field ids and key-value
 * metadata; hyparquet reads each data file they list and finds its row count and bounds.
 */
import { asyncBufferFromUrl, parquetReadObjects } from 'hyparquet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { followPublishes, type RemoteConfig, type RemoteFollower } from '../../src/remote/index.js';
import type { RunningSimulator } from '../../src/simulator/start-simulator.js';
import { publishStream, TABLES } from '../../src/warehouse/index.js';
import { fieldIds, readAvroWithAvroJs, unwrap } from '../helpers/avro-js-read.js';
import { icebergRows, rowSet, withFetchTo } from '../helpers/iceberg-rows.js';
import { motoMissing } from '../helpers/moto-server.js';
import { rows, startSim, sync, syncConfig, tempDataDir } from '../helpers/sync-harness.js';
import { tempDir } from '../helpers/temp-dir.js';
import { sampleStreamBatch, streamDocument } from '../helpers/warehouse-stream-rows.js';
import { withMoto } from '../helpers/with-moto.js';

const missing = motoMissing();
if (missing) console.warn(`remote-iceberg-read: did not run: ${missing}`);

describe.skipIf(missing)('the remote lake read by icebird', () => {
  const moto = withMoto({ publicRead: true });
  let sim: RunningSimulator;
  let follower: RemoteFollower;
  let remote: RemoteConfig;
  const dataDir = tempDataDir();
  /** Per table: its rows after the first day, and the metadata version then. */
  const firstDay = new Map<string, { rows: Record<string, unknown>[]; version: number }>();

  beforeAll(async () => {
    remote = moto.remote('cw', { retentionMs: 86_400_000 });
    follower = followPublishes(remote, (failure) => {
      throw failure;
    });
    sim = await startSim();
    await sync(sim, syncConfig(sim, dataDir));
    await publishStream(dataDir, sampleStreamBatch());
    expect(follower.failure).toBeUndefined();
    const state = follower.last!;
    expect(state.commits.length).toBeGreaterThan(0);
    for (const table of Object.keys(TABLES))
      firstDay.set(table, {
        rows: await rows(dataDir, `select * from ${table}`),
        version: await versionOf(table),
      });
    sim.clock.advance(86_400_000);
    await sync(sim, syncConfig(sim, dataDir));
    await publishStream(dataDir, {
      documents: [streamDocument('h1', 'd9', '2026-11-21T08:00:00Z', '2026-11-22T09:00:05Z')],
      deliveries: [
        { delivery_id: 9, hook_id: 'h1', received_at: '2026-11-22T09:00:05Z', documents: 1, bytes: 300 },
      ],
      hooks: [],
    });
    expect(follower.failure).toBeUndefined();
  }, 240_000);

  afterAll(async () => {
    await follower?.detach();
    await sim?.close();
  });

  async function versionOf(table: string): Promise<number> {
    const hint = await fetch(`${moto.url}/lake/cw/${table}/metadata/version-hint.text`);
    return hint.ok ? Number(await hint.text()) : 0;
  }

  it.each(Object.keys(TABLES))('%s: the current snapshot holds the local rows', async (table) => {
    const local = await rows(dataDir, `select * from ${table}`);
    if (local.length === 0) {
      expect(await versionOf(table)).toBe(0);
      return;
    }
    const columns = Object.keys(local[0]!);
    const remoteRows = await withFetchTo(moto.url, () => icebergRows(`s3://lake/cw/${table}`));
    expect(rowSet(remoteRows, columns)).toEqual(rowSet(local, columns));
  });

  it.each(['campaign_metrics', 'post_metrics', 'posts', 'stream_documents'])(
    '%s: the first day’s snapshot still reads as the first day',
    async (table) => {
      const { rows: local, version } = firstDay.get(table)!;
      expect(version).toBeGreaterThan(0);
      expect(await versionOf(table)).toBeGreaterThan(version);
      const columns = Object.keys(local[0]!);
      const remoteRows = await withFetchTo(moto.url, () =>
        icebergRows(`s3://lake/cw/${table}`, `v${version}.metadata.json`),
      );
      expect(rowSet(remoteRows, columns)).toEqual(rowSet(local, columns));
    },
  );

  /** The spec's field ids of a manifest list's `manifest_file` (format/spec.md, "Manifest Lists"). */
  const MANIFEST_FILE_IDS = {
    manifest_path: 500,
    manifest_length: 501,
    partition_spec_id: 502,
    content: 517,
    sequence_number: 515,
    min_sequence_number: 516,
    added_snapshot_id: 503,
    added_files_count: 504,
    existing_files_count: 505,
    deleted_files_count: 506,
    added_rows_count: 512,
    existing_rows_count: 513,
    deleted_rows_count: 514,
    partitions: 507,
    'partitions.contains_null': 509,
    'partitions.contains_nan': 518,
    'partitions.lower_bound': 510,
    'partitions.upper_bound': 511,
    key_metadata: 519,
  };
  /** The spec's field ids of `manifest_entry` ("Manifest Entry Fields", "Data File Fields"). */
  const MANIFEST_ENTRY_IDS = {
    status: 0,
    snapshot_id: 1,
    sequence_number: 3,
    file_sequence_number: 4,
    data_file: 2,
    'data_file.content': 134,
    'data_file.file_path': 100,
    'data_file.file_format': 101,
    'data_file.partition': 102,
    'data_file.record_count': 103,
    'data_file.file_size_in_bytes': 104,
    'data_file.lower_bounds': 125,
    'data_file.lower_bounds.key': 126,
    'data_file.lower_bounds.value': 127,
    'data_file.upper_bounds': 128,
    'data_file.upper_bounds.key': 129,
    'data_file.upper_bounds.value': 130,
    'data_file.sort_order_id': 140,
  };
  const scratch = tempDir('cw-avro-');

  async function object(uri: string): Promise<Buffer> {
    const reply = await fetch(`${moto.url}/${uri.replace(/^s3:\/\//, '')}`);
    expect(reply.status, uri).toBe(200);
    return Buffer.from(await reply.arrayBuffer());
  }

  it.each([
    'campaign_metrics',
    'post_metrics',
    'posts',
    'stream_documents',
    'stream_deliveries',
    'sync_runs',
  ])(
    '%s: metadata, manifest list and manifests follow the spec; the data files match their entries',
    async (table) => {
      const version = await versionOf(table);
      const metadata = JSON.parse(
        (await object(`s3://lake/cw/${table}/metadata/v${version}.metadata.json`)).toString(),
      );
      expect(metadata['format-version']).toBe(2);
      expect(metadata.location).toBe(`s3://lake/cw/${table}`);
      expect(metadata.refs.main).toEqual({ 'snapshot-id': metadata['current-snapshot-id'], type: 'branch' });
      expect(metadata['snapshot-log'].at(-1)['snapshot-id']).toBe(metadata['current-snapshot-id']);
      expect(metadata['metadata-log'].at(-1)['metadata-file']).toBe(
        `s3://lake/cw/${table}/metadata/v${version - 1}.metadata.json`,
      );
      const schema = metadata.schemas.find(
        (x: { 'schema-id': number }) => x['schema-id'] === metadata['current-schema-id'],
      );
      const ids = schema.fields.map((f: { id: number }) => f.id);
      expect(new Set(ids).size).toBe(ids.length);
      expect(JSON.parse(metadata.properties['schema.name-mapping.default'])).toEqual(
        schema.fields.map((f: { id: number; name: string }) => ({ 'field-id': f.id, names: [f.name] })),
      );
      const spec = metadata['partition-specs'].find(
        (x: { 'spec-id': number }) => x['spec-id'] === metadata['default-spec-id'],
      );
      const receivedAt = schema.fields.find((f: { name: string }) => f.name === 'received_at');
      expect(spec.fields).toEqual(
        table.startsWith('stream_')
          ? [{ 'source-id': receivedAt.id, 'field-id': 1000, name: 'received_date', transform: 'day' }]
          : [],
      );
      const snapshot = metadata.snapshots.find(
        (x: { 'snapshot-id': number }) => x['snapshot-id'] === metadata['current-snapshot-id'],
      );
      expect(['append', 'replace', 'overwrite', 'delete']).toContain(snapshot.summary.operation);

      const list = await readAvroWithAvroJs(
        await object(snapshot['manifest-list']),
        scratch,
        `${table}-list.avro`,
      );
      expect(fieldIds(list.schema)).toEqual(MANIFEST_FILE_IDS);
      expect(list.meta['format-version']).toBe('2');
      expect(list.meta['snapshot-id']).toBe(String(snapshot['snapshot-id']));
      expect(list.meta['sequence-number']).toBe(String(snapshot['sequence-number']));
      let liveRows = 0;
      let liveFiles = 0;
      for (const [i, manifestFile] of list.records.entries()) {
        const manifest = await readAvroWithAvroJs(
          await object(manifestFile.manifest_path as string),
          scratch,
          `${table}-m${i}.avro`,
        );
        expect(manifest.records.length).toBeGreaterThan(0);
        expect(Number(manifestFile.manifest_length)).toBe(
          (await object(manifestFile.manifest_path as string)).length,
        );
        const partitionIds = Object.fromEntries(
          spec.fields.map((f: { name: string; 'field-id': number }) => [
            `data_file.partition.${f.name}`,
            f['field-id'],
          ]),
        );
        expect(fieldIds(manifest.schema)).toEqual({ ...MANIFEST_ENTRY_IDS, ...partitionIds });
        expect(JSON.parse(manifest.meta.schema!)).toEqual(
          metadata.schemas.find(
            (x: { 'schema-id': number }) => String(x['schema-id']) === manifest.meta['schema-id'],
          ),
        );
        expect(JSON.parse(manifest.meta['partition-spec']!)).toEqual(spec.fields);
        expect(manifest.meta['partition-spec-id']).toBe(String(spec['spec-id']));
        expect(manifest.meta['format-version']).toBe('2');
        expect(manifest.meta.content).toBe('data');
        const count = (status: number) => manifest.records.filter((e) => e.status === status).length;
        expect([count(1), count(0), count(2)]).toEqual([
          manifestFile.added_files_count,
          manifestFile.existing_files_count,
          manifestFile.deleted_files_count,
        ]);
        for (const entry of manifest.records.filter((e) => e.status !== 2)) {
          const file = entry.data_file as {
            file_path: string;
            record_count: number;
            file_size_in_bytes: number;
            partition: Record<string, number | null>;
            lower_bounds: { key: number; value: Buffer }[] | null;
            upper_bounds: { key: number; value: Buffer }[] | null;
          };
          if (entry.status === 0) expect(entry.sequence_number).not.toBeNull();
          liveRows += Number(file.record_count);
          liveFiles += 1;
          const url = `${moto.url}/${file.file_path.replace(/^s3:\/\//, '')}`;
          const buffer = await asyncBufferFromUrl({ url, byteLength: Number(file.file_size_in_bytes) });
          const data = await parquetReadObjects({ file: buffer });
          expect(data.length).toBe(Number(file.record_count));
          for (const column of ['snapshot_date', 'received_at']) {
            const field = schema.fields.find((f: { name: string }) => f.name === column);
            if (!field || !(column in (data[0] ?? {}))) continue;
            const bound = (list: typeof file.lower_bounds) =>
              unwrap<{ key: number; value: Buffer }[] | null>(list)?.find((b) => b.key === field.id)?.value;
            const values = data
              .map((r) => r[column] as Date)
              .filter(Boolean)
              .map((d) => d.getTime());
            const decode = (b: Buffer) =>
              column === 'snapshot_date'
                ? b.readInt32LE(0) * 86_400_000
                : Number(b.readBigInt64LE(0) / 1000n);
            expect(decode(bound(file.lower_bounds)!)).toBe(Math.min(...values));
            expect(decode(bound(file.upper_bounds)!)).toBe(Math.max(...values));
            if (column === 'received_at') {
              const day = unwrap<number>(file.partition.received_date);
              for (const value of values) expect(Math.floor(value / 86_400_000)).toBe(day);
            }
          }
        }
      }
      expect(String(liveRows)).toBe(snapshot.summary['total-records']);
      expect(String(liveFiles)).toBe(snapshot.summary['total-data-files']);
      const [local] = await rows(dataDir, `select count(*) as n from ${table}`);
      expect(liveRows).toBe(Number(local!.n));
    },
  );
});
