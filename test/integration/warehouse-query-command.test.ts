import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Command } from 'commander';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { registerQuery } from '../../src/cli/query-command.js';
import { UserError } from '../../src/util/user-error.js';
import { removableTempDir } from '../helpers/temp-dir.js';
import { stageAndPublish } from '../helpers/warehouse-temp.js';

/** Runs `query ...args` as the CLI would and returns what it printed. */
async function runQuery(args: string[]): Promise<string> {
  const program = new Command('campaign-warehouse').exitOverride();
  registerQuery(program);
  let out = '';
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    out += String(chunk);
    return true;
  });
  try {
    await program.parseAsync(['node', 'campaign-warehouse', 'query', ...args]);
  } finally {
    spy.mockRestore();
  }
  return out;
}

describe('campaign-warehouse query', () => {
  const data = removableTempDir('cw-warehouse-');
  beforeAll(async () => {
    await stageAndPublish(data.dir, '2026-11-20');
  });
  afterAll(() => data.remove());

  it('prints a table by default', async () => {
    const out = await runQuery([
      'select campaign_id, num_posts from campaign_metrics',
      '--data-dir',
      data.dir,
    ]);
    expect(out).toContain('campaign_id');
    expect(out).toMatch(/c1\s*│\s*4/);
    expect(out).toContain('(1 row)');
  });

  it('prints CSV and JSON', async () => {
    const sql = "select 'a,b' as text, 2 as n, date '2026-11-20' as d, null as missing";
    expect(await runQuery([sql, '--format', 'csv', '--data-dir', data.dir])).toBe(
      'text,n,d,missing\r\n"a,b",2,2026-11-20,\r\n',
    );
    expect(JSON.parse(await runQuery([sql, '--format', 'json', '--data-dir', data.dir]))).toEqual([
      { text: 'a,b', n: 2, d: '2026-11-20', missing: null },
    ]);
  });

  it('reads CW_DATA_DIR when --data-dir is absent', async () => {
    vi.stubEnv('CW_DATA_DIR', data.dir);
    try {
      expect(await runQuery(['select count(*) as n from sync_runs', '--format', 'json'])).toContain('"n": 1');
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it("turns a SQL error (DuckDB's whole message, hint included), a write and a missing warehouse into user errors", async () => {
    await expect(runQuery(['select nope from campaign_metrics', '--data-dir', data.dir])).rejects.toThrow(
      UserError,
    );
    const typo = await runQuery(['select * from campaign_metric', '--data-dir', data.dir]).catch(
      (error: Error) => error.message,
    );
    expect(typo).toMatch(/^query failed: Catalog Error: Table with name campaign_metric does not exist!\n/);
    expect(typo).toContain('Did you mean "campaign_metrics"?');
    expect(typo).toMatch(/LINE 1: select \* from campaign_metric\n\s+\^$/);
    await expect(runQuery(['delete from campaign_metrics', '--data-dir', data.dir])).rejects.toThrow(
      /^query is read-only.*Can only delete from base table/i,
    );
    await expect(
      runQuery(["insert into campaigns (campaign_id) values ('x')", '--data-dir', data.dir]),
    ).rejects.toThrow(/^query is read-only \(its tables are views over the Parquet lake\)/);
    await expect(runQuery(['select 1', '--data-dir', `${data.dir}/nothing`])).rejects.toThrow(
      /no warehouse yet at .*campaign-warehouse sync/,
    );
    await expect(runQuery(['select 1', '--format', 'xml', '--data-dir', data.dir])).rejects.toThrow(
      /--format/,
    );
  });

  it('runs one statement, and refuses several in one line', async () => {
    await expect(runQuery(['select 1; select 2', '--data-dir', data.dir])).rejects.toThrow(
      /^query runs one statement, got 2: run them one at a time$/,
    );
    expect(await runQuery(['select 7 as n;', '--format', 'csv', '--data-dir', data.dir])).toBe('n\r\n7\r\n');
    await expect(runQuery([' ', '--data-dir', data.dir])).rejects.toThrow(/^query: no SQL statement given$/);
    await expect(runQuery(['/* nothing */', '--data-dir', data.dir])).rejects.toThrow(/no SQL statement/);
  });

  it('writes no file and reads none outside the lake, whatever the statement', async () => {
    const outside = join(data.dir, 'out.csv');
    const inLake = join(data.dir, 'lake', 'out.csv');
    for (const [sql, refusal] of [
      [`copy (select 1) to '${outside}'`, /Permission Error: Cannot access file.*writes none/s],
      [`copy (select 1) to '${inLake}'`, /^query is read-only: .*not COPY statements/],
      [`explain analyze copy (select 1) to '${inLake}'`, /^query is read-only/],
      [`export database '${join(data.dir, 'export')}'`, /read-only|Permission Error/],
      [`attach '${join(data.dir, 'other.duckdb')}' as other`, /^query is read-only: .*not ATTACH/],
      ["select * from read_csv('/etc/hostname')", /Permission Error: Cannot access file "\/etc\/hostname"/],
      ['set enable_external_access = true', /read-only|locked/],
    ] as const)
      await expect(runQuery([sql, '--data-dir', data.dir]), sql).rejects.toThrow(refusal);
    expect(existsSync(outside)).toBe(false);
    expect(existsSync(inLake)).toBe(false);
    expect(existsSync(join(data.dir, 'export'))).toBe(false);
    expect(existsSync(join(data.dir, 'other.duckdb'))).toBe(false);
    // Reads still work, the lake's files included, and so does EXPLAIN ANALYZE of a SELECT.
    expect(
      await runQuery([
        'select count(*) as n from campaign_metrics',
        '--format',
        'csv',
        '--data-dir',
        data.dir,
      ]),
    ).toBe('n\r\n1\r\n');
    expect(
      await runQuery(['explain analyze select count(*) from campaign_metrics', '--data-dir', data.dir]),
    ).toContain('Query Profiling');
  });
});
