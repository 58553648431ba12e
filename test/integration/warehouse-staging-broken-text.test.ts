/**
 * Broken text on its way into DuckDB (issue 38 item 1): the appender stores lone surrogates as
 * U+FFFD in text and JSON columns (the JSON then reads back through DuckDB's JSON functions
 * and a Parquet file), and a staging file an earlier release left with such JSON is repaired
 * when a run resumes in it.
 */
import { join } from 'node:path';
import { DuckDBTimestampValue } from '@duckdb/node-api';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type OpenDatabase, openDatabase } from '../../src/warehouse/duckdb/open-database.js';
import { TableAppender } from '../../src/warehouse/duckdb/table-appender.js';
import { takeRepairedText } from '../../src/warehouse/duckdb/text-repairs.js';
import { sqlString } from '../../src/warehouse/duckdb/warehouse-paths.js';
import { openStaging } from '../../src/warehouse/staging/open-staging.js';
import { removableTempDir } from '../helpers/temp-dir.js';

const FFFD = '\uFFFD';

describe('broken text through the appender', () => {
  let db: OpenDatabase;
  let data: ReturnType<typeof removableTempDir>;
  beforeEach(async () => {
    data = removableTempDir('cw-broken-text-');
    db = await openDatabase(':memory:');
    await db.connection.run('create table t (s varchar, j json)');
    takeRepairedText();
  });
  afterEach(() => {
    db.close();
    data.remove();
  });

  it('stores U+FFFD for lone surrogates; the JSON reads back, also from Parquet', async () => {
    const appender = await TableAppender.create(db.connection, 't');
    appender.append([
      { s: 'a\ud800b', j: JSON.stringify({ 'k\udfff': 'end\ud83d', pair: '\ud83d\ude00' }) },
      { s: 'ok', j: '{"ok":true}' },
      // Long enough not to be inlined (write-chunk-column.ts): the heap path too.
      { s: `${'x'.repeat(40)}\udc00`, j: null },
    ]);
    appender.close();
    expect(takeRepairedText()).toEqual({ values: 3, fields: { 't.j': 1, 't.s': 2 } });
    const file = join(data.dir, 't.parquet');
    await db.connection.run(`copy t to ${sqlString(file)} (format parquet)`);
    const reader = await db.connection.runAndReadAll(
      `select s, j->>'$.pair', json_keys(j) from read_parquet(${sqlString(file)}) order by s`,
    );
    expect(reader.getRowsJS()).toEqual([
      ['a\uFFFDb', '\ud83d\ude00', [`k${FFFD}`, 'pair']],
      ['ok', null, ['ok']],
      [`${'x'.repeat(40)}${FFFD}`, null, null],
    ]);
  });

  it('repairs the JSON an earlier release staged, when a run resumes in its staging file', async () => {
    const staging = await openStaging(data.dir, 'sync-2026-11-20');
    await staging.close();
    // The earlier release's appender: text as it came, the escape of a lone surrogate included.
    const old = await openDatabase(staging.path);
    const appender = await old.connection.createAppender('campaigns');
    const columns = (
      await old.connection.runAndReadAll(
        "select column_name from duckdb_columns() where table_name = 'campaigns' order by column_index",
      )
    )
      .getRows()
      .map((r) => String(r[0]));
    for (const column of columns)
      if (column === 'campaign_id') appender.appendVarchar('5000');
      else if (column === 'raw') appender.appendVarchar('{"name":"Camp\\ud800aign 1"}');
      else if (column.endsWith('_seen_at')) appender.appendTimestamp(new DuckDBTimestampValue(0n));
      else appender.appendNull();
    appender.endRow();
    appender.closeSync();
    old.close();
    takeRepairedText();
    const resumed = await openStaging(data.dir, 'sync-2026-11-20');
    await resumed.close();
    expect(takeRepairedText()).toEqual({ values: 1, fields: { 'campaigns.raw': 1 } });
    const check = await openDatabase(staging.path, { access_mode: 'READ_ONLY' });
    try {
      const reader = await check.connection.runAndReadAll("select raw->>'$.name' from campaigns");
      expect(reader.getRowsJS()).toEqual([[`Camp${FFFD}aign 1`]]);
    } finally {
      check.close();
    }
  });
});
