import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type OpenDatabase, openDatabase } from '../../src/warehouse/duckdb/open-database.js';
import { TableAppender } from '../../src/warehouse/duckdb/table-appender.js';
import { toPlain } from '../../src/warehouse/read/query-read-only.js';

/** Round trips through the chunk writer: every column kind, NULLs, edge values. */
describe('TableAppender', () => {
  let db: OpenDatabase;
  beforeEach(async () => {
    db = await openDatabase(':memory:');
    await db.connection.run(
      'create table t (s varchar, j json, b bigint, i integer, d double, dt date, ts timestamp, f boolean)',
    );
  });
  afterEach(() => db.close());

  async function rows(): Promise<unknown[][]> {
    const reader = await db.connection.runAndReadAll('select * from t order by rowid');
    return reader.getRows().map((row) => row.map(toPlain));
  }

  it('writes every kind, with NULLs and values at the edges', async () => {
    const appender = await TableAppender.create(db.connection, 't');
    appender.append([
      {
        s: 'short',
        j: '{"a":1}',
        b: 1,
        i: 7,
        d: 0.5,
        dt: '2026-11-20',
        ts: '2026-11-20T19:00:00.123456Z',
        f: true,
      },
      { s: null, j: null, b: null, i: null, d: null, dt: null, ts: null, f: null },
      {
        s: 'a string longer than twelve bytes',
        j: JSON.stringify({ long: 'x'.repeat(100) }),
        b: -9_007_199_254_740_991,
        i: -1,
        d: -1e300,
        dt: '1900-01-01',
        ts: '1960-06-01T00:00:00Z',
        f: false,
      },
      {
        s: 'héllo',
        j: '[]',
        b: '9223372036854775807',
        i: 0,
        d: 0,
        dt: '2999-12-31',
        ts: '2100-01-01T00:00:00Z',
        f: 'false',
      },
      {
        s: '',
        j: '""',
        b: 4_294_967_296,
        i: 2_147_483_647,
        d: 3,
        dt: '1970-01-01',
        ts: '1970-01-01T00:00:00Z',
      },
    ]);
    appender.close();
    expect(await rows()).toEqual([
      ['short', '{"a":1}', 1, 7, 0.5, '2026-11-20', '2026-11-20T19:00:00.123456Z', true],
      [null, null, null, null, null, null, null, null],
      [
        'a string longer than twelve bytes',
        JSON.stringify({ long: 'x'.repeat(100) }),
        -9_007_199_254_740_991,
        -1,
        -1e300,
        '1900-01-01',
        '1960-06-01T00:00:00.000Z',
        false,
      ],
      ['héllo', '[]', '9223372036854775807', 0, 0, '2999-12-31', '2100-01-01T00:00:00.000Z', false],
      ['', '""', 4_294_967_296, 2_147_483_647, 3, '1970-01-01', '1970-01-01T00:00:00.000Z', null],
    ]);
    const reader = await db.connection.runAndReadAll(
      "select count(*) from t where s = 'short' and s like 'sho%'",
    );
    expect(Number(reader.getRows()[0]![0])).toBe(1);
  });

  it('appends across chunk boundaries and flushes', async () => {
    const appender = await TableAppender.create(db.connection, 't');
    appender.append(Array.from({ length: 5000 }, (_, n) => ({ s: `row-${n}`, b: n, f: n % 2 === 0 })));
    appender.flush();
    appender.append([{ s: 'last', b: 5000 }]);
    appender.close();
    const reader = await db.connection.runAndReadAll(
      'select count(*), sum(b), count(*) filter (where f), max(s) filter (where b = 4999) from t',
    );
    expect(reader.getRows()[0]!.map(toPlain)).toEqual([5001, 12502500, 2500, 'row-4999']);
  });
});
