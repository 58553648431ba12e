/**
 * The rows of a Parquet file read from its footer alone (src/remote/parquet-row-count.ts, which
 * `status` and /metrics use instead of DuckDB), against DuckDB's own count, for files of every
 * shape the lake writes: none, one and many rows, nested and JSON columns, several row groups.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { describe, expect, it } from 'vitest';
import { parquetRowCount } from '../../src/remote/parquet-row-count.js';
import { tempDir } from '../helpers/temp-dir.js';

describe('parquetRowCount', () => {
  it('equals DuckDB count for empty, small, nested and multi-row-group files', async () => {
    const dir = tempDir('cw-prc-');
    const instance = await DuckDBInstance.create(':memory:');
    const connection = await instance.connect();
    const cases: [string, string, number][] = [
      ['empty', 'select 1::bigint as a, 2.5::double as b where false', 0],
      ['one', "select 1::bigint as a, 'x' as b, date '2026-11-21' as d", 1],
      [
        'nested',
        "select i as a, [i, i + 1] as l, {'k': i, 's': 'v' || i} as s, map {'m': i} as m, (i % 2 = 0) as flag, '{\"j\":1}'::json as j from range(1000) t(i)",
        1000,
      ],
      ['groups', 'select i, i * 2.0 as d from range(300000) t(i)', 300_000],
    ];
    try {
      for (const [name, select, expected] of cases) {
        const path = join(dir, `${name}.parquet`);
        await connection.run(`copy (${select}) to '${path}' (format parquet, row_group_size 100000)`);
        expect(await parquetRowCount(path), name).toBe(expected);
      }
    } finally {
      connection.closeSync();
      instance.closeSync();
    }
  });

  it('refuses a file that is no Parquet file, in one line naming it', async () => {
    const path = join(tempDir('cw-prc-'), 'not.parquet');
    writeFileSync(path, 'hello, this is not parquet at all');
    await expect(parquetRowCount(path)).rejects.toThrow(/not\.parquet is not a Parquet file/);
  });
});
