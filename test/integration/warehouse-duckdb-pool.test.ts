/** leaseDuckDB: a released instance is reset and taken by the next session with its settings. */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { closeIdleDuckDB, type DuckDBLease, leaseDuckDB } from '../../src/warehouse/duckdb/duckdb-pool.js';
import { queryRows } from '../helpers/query-rows.js';
import { tempDir } from '../helpers/temp-dir.js';

const SETTINGS = { memory_limit: '32MB', threads: '1' };

async function one(lease: DuckDBLease, sql: string): Promise<unknown> {
  return (await queryRows(lease.connection, sql))[0]?.[0];
}

describe('leaseDuckDB', () => {
  afterEach(() => closeIdleDuckDB());

  it('hands a released instance to the next session as new: nothing attached, created or changed', async () => {
    const dir = tempDir('cw-pool-');
    const file = join(dir, 'f.duckdb');
    const first = await leaseDuckDB(dir, SETTINGS, [`attach '${file}' as f`]);
    const spill = await one(first, "select current_setting('temp_directory')");
    await first.connection.run('create table memory.main.scratch as select 1 as a');
    await first.connection.run('create temp table t as select 1 as a');
    await first.connection.run('create table f.kept as select range as i from range(10)');
    await first.connection.run('begin transaction');
    await first.connection.run('insert into memory.main.scratch values (2)');
    // Left open: release rolls it back with the connection.
    await first.connection.run('pragma disable_checkpoint_on_shutdown');
    await first.close();
    // The file was detached without a checkpoint, as the session asked: its WAL is still there.
    expect(existsSync(`${file}.wal`)).toBe(true);

    const second = await leaseDuckDB(dir, SETTINGS);
    try {
      expect(await one(second, "select current_setting('temp_directory')")).toBe(spill);
      expect(
        await one(second, 'select list(database_name order by 1) from duckdb_databases() where not internal'),
      ).toEqual(expect.objectContaining({ items: ['memory'] }));
      expect(await one(second, 'select count(*)::integer from duckdb_tables()')).toBe(0);
      expect(await one(second, "select current_setting('memory_limit')")).toBe('30.5 MiB');
      // Checkpoints on shutdown are on again: a file written and detached leaves no WAL.
      await second.connection.run(`attach '${file}' as f`);
      expect(await one(second, 'select count(*)::integer from f.kept')).toBe(10);
      await second.connection.run('insert into f.kept values (10)');
      await second.connection.run('detach f');
      expect(existsSync(`${file}.wal`)).toBe(false);
    } finally {
      await second.close();
    }
  });

  it('gives a session with other settings, or one that runs beside another, an instance of its own', async () => {
    const dir = tempDir('cw-pool-');
    const spillOf = async (lease: DuckDBLease) => one(lease, "select current_setting('temp_directory')");
    const a = await leaseDuckDB(dir, SETTINGS);
    const b = await leaseDuckDB(dir, SETTINGS);
    const [spillA, spillB] = [await spillOf(a), await spillOf(b)];
    expect(spillA).not.toBe(spillB);
    await a.close();
    await b.close();
    // One idle instance per folder and settings: b's replaced a's, which closed.
    const c = await leaseDuckDB(dir, SETTINGS);
    expect(await spillOf(c)).toBe(spillB);
    const d = await leaseDuckDB(dir, { ...SETTINGS, memory_limit: '48MB' });
    expect(await spillOf(d)).not.toBe(spillB);
    await c.close();
    await d.close();
  });

  it('removes its spill folder when it closes, and those of processes that are gone when it starts', async () => {
    const dir = tempDir('cw-pool-');
    const gone = spawnSync(process.execPath, ['-e', '']).pid;
    for (const name of [
      `duckdb-spill-${gone}-1`,
      `lake-spill-${gone}-1700000000000`,
      `duckdb-spill-${process.ppid}-1`,
    ])
      mkdirSync(join(dir, name));
    const lease = await leaseDuckDB(dir, SETTINGS);
    // Spill past the limit, so that DuckDB writes into its folder.
    await lease.connection.run(
      'create table big as select range as i, md5(range::varchar) as m from range(2000000)',
    );
    const spill = String(await one(lease, "select current_setting('temp_directory')"));
    expect(existsSync(spill)).toBe(true);
    expect(readdirSync(dir).sort()).toEqual(
      [`duckdb-spill-${process.ppid}-1`, spill.slice(dir.length + 1)].sort(),
    );
    await lease.close();
    closeIdleDuckDB();
    expect(readdirSync(dir)).toEqual([`duckdb-spill-${process.ppid}-1`]);
  });

  it('does not hand out an instance whose spill folder was removed while it was idle', async () => {
    const dir = tempDir('cw-pool-');
    const spillBig =
      'create or replace table big as select range as i, md5(range::varchar) as m from range(2000000)';
    const first = await leaseDuckDB(dir, SETTINGS);
    await first.connection.run(spillBig);
    const spill = String(await one(first, "select current_setting('temp_directory')"));
    await first.close();
    rmSync(spill, { recursive: true, force: true });
    const second = await leaseDuckDB(dir, SETTINGS);
    try {
      expect(await one(second, "select current_setting('temp_directory')")).not.toBe(spill);
      await second.connection.run(spillBig);
      expect(await one(second, 'select count(*)::integer from big')).toBe(2_000_000);
    } finally {
      await second.close();
    }
  });
});
