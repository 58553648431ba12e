import { describe, expect, it } from 'vitest';
import {
  type DataFile,
  type Manifest,
  type ManifestEntry,
  random53,
} from '../../src/remote/iceberg-model.js';
import { evolveSchema, icebergType, nameMapping } from '../../src/remote/iceberg-schema.js';
import { manifestFileOf } from '../../src/remote/manifest-file-of.js';
import {
  decodeManifest,
  decodeManifestList,
  encodeManifest,
  encodeManifestList,
} from '../../src/remote/manifest-io.js';
import { MERGE_FANOUT, operationOf, planManifests } from '../../src/remote/plan-manifests.js';
import { dateValue, epochDays, epochMicros, timestampValue } from '../../src/remote/single-value.js';

const spec = { 'spec-id': 0, fields: [] };
const schema = evolveSchema(
  [
    { name: 'snapshot_date', type: 'DATE' },
    { name: 'n', type: 'BIGINT' },
  ],
  undefined,
  0,
)!.schema;

function file(name: string, rows = 10): DataFile {
  return { path: `s3://b/t/data/${name}`, rows, bytes: 100, partition: {}, lower: {}, upper: {} };
}

/** A manifest written by snapshot `id`, of `names` added then. */
function manifest(id: number, sequenceNumber: number, names: string[]): Manifest {
  const entries: ManifestEntry[] = names.map((n) => ({
    status: 1,
    snapshotId: id,
    sequenceNumber,
    fileSequenceNumber: sequenceNumber,
    file: file(n),
  }));
  return {
    file: manifestFileOf(entries, { path: `s3://b/t/metadata/m${id}.avro`, length: 1 }, spec, {
      id,
      sequenceNumber,
    }),
    entries,
  };
}

describe('single-value serialization', () => {
  it('writes a date as 4-byte little-endian days and a timestamp as 8-byte little-endian microseconds', () => {
    expect(epochDays('1970-01-02')).toBe(1);
    expect(epochDays('2026-11-21')).toBe(20_778);
    expect(dateValue(20_778)).toBe(Buffer.from([0x2a, 0x51, 0x00, 0x00]).toString('hex'));
    expect(epochMicros('1970-01-01 00:00:01.5')).toBe(1_500_000n);
    expect(timestampValue(1n)).toBe('0100000000000000');
  });
});

describe('the schema', () => {
  it('keeps each column’s field id and gives an added column the next one', () => {
    const first = evolveSchema(
      [
        { name: 'a', type: 'VARCHAR' },
        { name: 'b', type: 'JSON' },
      ],
      undefined,
      0,
    )!;
    expect(first.schema.fields.map((f) => [f.id, f.name, f.type])).toEqual([
      [1, 'a', 'string'],
      [2, 'b', 'string'],
    ]);
    expect(
      evolveSchema(
        [
          { name: 'a', type: 'VARCHAR' },
          { name: 'b', type: 'JSON' },
        ],
        first.schema,
        2,
      ),
    ).toBeUndefined();
    const second = evolveSchema(
      [
        { name: 'c', type: 'TIMESTAMP' },
        { name: 'a', type: 'VARCHAR' },
        { name: 'b', type: 'JSON' },
      ],
      first.schema,
      2,
    )!;
    expect(second.schema['schema-id']).toBe(1);
    expect(second.schema.fields.map((f) => [f.id, f.name])).toEqual([
      [1, 'a'],
      [2, 'b'],
      [3, 'c'],
    ]);
    expect(JSON.parse(nameMapping(second.schema))).toEqual([
      { 'field-id': 1, names: ['a'] },
      { 'field-id': 2, names: ['b'] },
      { 'field-id': 3, names: ['c'] },
    ]);
  });

  it('maps the migrations’ types and refuses one it does not know', () => {
    expect(['BIGINT', 'DOUBLE', 'BOOLEAN', 'DATE', 'DECIMAL(18, 3)'].map(icebergType)).toEqual([
      'long',
      'double',
      'boolean',
      'date',
      'decimal(18,3)',
    ]);
    expect(() => icebergType('UHUGEINT')).toThrow(/no Iceberg type/);
  });
});

describe('manifests', () => {
  it('round-trip through Avro, an added file inheriting its sequence number from the list', async () => {
    const id = random53();
    const entries: ManifestEntry[] = [
      {
        status: 1,
        snapshotId: id,
        sequenceNumber: 7,
        fileSequenceNumber: 7,
        file: { ...file('x'), lower: { 1: dateValue(5) }, upper: { 1: dateValue(9) } },
      },
      { status: 0, snapshotId: 3, sequenceNumber: 2, fileSequenceNumber: 2, file: file('y', 4) },
    ];
    const bytes = await encodeManifest(entries, { schema, spec }, (e) => e.snapshotId === id);
    const listed = manifestFileOf(entries, { path: 's3://b/t/metadata/m.avro', length: bytes.length }, spec, {
      id,
      sequenceNumber: 7,
    });
    const [read] = await decodeManifestList(
      await encodeManifestList([listed], { id, parentId: undefined, sequenceNumber: 7 }),
    );
    expect(read).toEqual(listed);
    expect(read!.minSequenceNumber).toBe(2);
    expect(await decodeManifest(bytes, read!)).toEqual(entries);
  });
});

describe('planManifests', () => {
  it('appends in a new manifest and reuses the others unchanged', () => {
    const base = [manifest(1, 1, ['a', 'b'])];
    const plan = planManifests(
      base,
      { added: [file('c')], removed: new Set() },
      { id: 2, sequenceNumber: 2 },
    );
    expect(plan.kept).toEqual([base[0]!.file]);
    expect(plan.written).toHaveLength(1);
    expect(plan.written[0]!.map((e) => [e.status, e.file.path])).toEqual([[1, 's3://b/t/data/c']]);
  });

  it('rewrites only the manifest holding a removed file, the file marked deleted and the others existing', () => {
    const base = [manifest(1, 1, ['a', 'b']), manifest(2, 2, ['c'])];
    const plan = planManifests(
      base,
      { added: [], removed: new Set(['s3://b/t/data/a']) },
      { id: 3, sequenceNumber: 3 },
    );
    expect(plan.kept).toEqual([base[1]!.file]);
    expect(plan.written[0]!.map((e) => [e.status, e.file.path, e.sequenceNumber, e.snapshotId])).toEqual([
      [2, 's3://b/t/data/a', 1, 3],
      [0, 's3://b/t/data/b', 1, 1],
    ]);
  });

  it('keeps a snapshot to a few manifests per size class however many appends came before', () => {
    let manifests: Manifest[] = [];
    for (let s = 1; s <= 400; s += 1) {
      const plan = planManifests(
        manifests,
        { added: [file(`f${s}`)], removed: new Set() },
        { id: s, sequenceNumber: s },
      );
      const written = plan.written.map((entries, i) => ({
        file: manifestFileOf(entries, { path: `s3://b/t/metadata/${s}-${i}.avro`, length: 1 }, spec, {
          id: s,
          sequenceNumber: s,
        }),
        entries,
      }));
      const kept = manifests.filter((m) => plan.kept.includes(m.file));
      manifests = [...written, ...kept];
      expect(manifests.flatMap((m) => m.entries).filter((e) => e.status !== 2)).toHaveLength(s);
    }
    expect(manifests.length).toBeLessThanOrEqual((MERGE_FANOUT - 1) * 5);
  });
});

describe('operationOf', () => {
  it('names append, delete, replace (the same rows in fewer files) and overwrite', () => {
    expect(operationOf([file('a')], [])).toBe('append');
    expect(operationOf([], [file('a')])).toBe('delete');
    expect(operationOf([file('m', 20)], [file('a'), file('b')])).toBe('replace');
    expect(operationOf([file('m', 21)], [file('a'), file('b')])).toBe('overwrite');
    expect(operationOf([file('a2')], [file('a')])).toBe('overwrite');
  });
});
