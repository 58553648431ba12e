/** openWriter: the file attached with a row group size, as the default database. */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { closeIdleDuckDB } from '../../src/warehouse/duckdb/duckdb-pool.js';
import { openDatabase, openWriter } from '../../src/warehouse/duckdb/open-database.js';

describe('openWriter', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('writes row groups of that size into the file, which reopens as an ordinary DuckDB file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cw-open-db-'));
    dirs.push(dir);
    const path = join(dir, 'w.duckdb');
    const writer = await openWriter(path, { memory_limit: '32MB', threads: '1' }, 2_048);
    try {
      await writer.connection.run(
        "create table main.t as select range as i, repeat('x', 200) as s from range(10000)",
      );
      const spill = await writer.connection.runAndReadAll("select current_setting('temp_directory')");
      // The instance spills beside the file, into a folder of its own.
      expect(spill.getRows()[0]?.[0]).toMatch(new RegExp(`^${dir}/duckdb-spill-${process.pid}-\\d+$`));
      await writer.connection.run('checkpoint');
    } finally {
      await writer.close();
    }
    const reader = await openDatabase(path, { access_mode: 'READ_ONLY' });
    try {
      const rows = await reader.connection.runAndReadAll(
        "select count(*)::integer, (select count(distinct row_group_id)::integer from pragma_storage_info('t')) from t",
      );
      // 10,000 rows in groups of 2,048: five groups (DuckDB's default would make one).
      expect(rows.getRows()[0]).toEqual([10_000, 5]);
    } finally {
      reader.close();
    }
    closeIdleDuckDB();
    expect(readdirSync(dir)).toEqual(['w.duckdb']);
  });
});
