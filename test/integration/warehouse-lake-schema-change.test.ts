import { execFile } from 'node:child_process';
import { copyFileSync, cpSync, readlinkSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { type DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { afterAll, describe, expect, it } from 'vitest';
import { publishedPath } from '../../src/warehouse/duckdb/warehouse-paths.js';
import { lakePath, readStamp, versionFiles } from '../../src/warehouse/lake/testing.js';
import { ensureBuiltCli } from '../helpers/built-cli.js';
import { removableTempDir } from '../helpers/temp-dir.js';
import { sampleRun, sampleUnitRows } from '../helpers/warehouse-rows.js';
import { stageAndPublish } from '../helpers/warehouse-temp.js';

const run = promisify(execFile);
const CHILD = join('test', 'helpers', 'next-release-publish-child.mjs');
const OLD_DAY = '2026-11-20';
const NEW_DAY = '2026-11-21';
const POSTS = 3;
/** What a later release's migration would add: a column of a fact table. */
const MIGRATION = 'alter table post_metrics add column saves bigint; -- times the post was saved\n';

/**
 * A copy of the package as the next release would ship it: today's built code and sql/, plus
 * one migration. The code finds sql/ from where it runs (packageRoot), so the copy applies
 * its own migrations; node_modules is linked, not copied.
 */
function nextRelease(dir: string): string {
  ensureBuiltCli();
  for (const part of ['dist/src', 'dist/pipelines', 'sql'])
    cpSync(part, join(dir, part), { recursive: true });
  copyFileSync('package.json', join(dir, 'package.json'));
  symlinkSync(resolve('node_modules'), join(dir, 'node_modules'));
  writeFileSync(join(dir, 'sql', 'warehouse', 'migrations', '099_post_saves.sql'), MIGRATION);
  return dir;
}

async function select(connection: DuckDBConnection, sql: string): Promise<unknown[][]> {
  return (await connection.runAndReadAll(sql)).getRows();
}

describe('a later migration adding a column', () => {
  const data = removableTempDir('cw-lake-schema-');
  const work = removableTempDir('cw-next-release-');
  let held: { instance: DuckDBInstance; connection: DuckDBConnection } | undefined;
  afterAll(() => {
    held?.connection.closeSync();
    held?.instance.closeSync();
    data.remove();
    work.remove();
  });

  it('keeps the old files readable (NULL in the new column) and types the new one', async () => {
    const dir = data.dir;
    const lake = lakePath(dir);
    // The old day's file in the table's live folder (one link per table, files named by date
    // in their period's `last_date=` folder).
    const oldDayFile = () => {
      const dir = resolve(lake, readlinkSync(join(lake, 'post_metrics')));
      const name = versionFiles(dir).find((file) => file.startsWith(`last_date=${OLD_DAY}/${OLD_DAY}~all.`))!;
      return { name, ino: statSync(join(dir, name)).ino };
    };

    // The current release publishes a day.
    await stageAndPublish(dir, OLD_DAY, ['all'], { posts: POSTS });
    const oldDay = oldDayFile();
    const stampBefore = readStamp(lake)!.schema;
    const catalogBefore = statSync(publishedPath(dir)).ino;

    // A BI tool opens the catalog and keeps its connection.
    const instance = await DuckDBInstance.create(publishedPath(dir), { access_mode: 'READ_ONLY' });
    held = { instance, connection: await instance.connect() };
    expect(await select(held.connection, 'select count(*)::integer from post_metrics')).toEqual([[POSTS]]);

    // The next release, with the migration, publishes the following day, which has the column.
    const rows = sampleUnitRows({ snapshotDate: NEW_DAY, segment: 'all', posts: POSTS });
    rows.post_metrics = rows.post_metrics!.map((row, i) => ({ ...row, saves: 7 + i }));
    const input = join(work.dir, 'input.json');
    writeFileSync(
      input,
      JSON.stringify({ snapshotDate: NEW_DAY, segments: ['all'], rows, run: sampleRun('r2', NEW_DAY) }),
    );
    const release = nextRelease(join(work.dir, 'release'));
    const { stdout } = await run(process.execPath, [CHILD, release, dir, input]);
    expect(JSON.parse(stdout).rowsWritten).toBeGreaterThan(0);

    // The catalog was rewritten for the new schema (a new file, renamed over the old one)...
    expect(readStamp(lake)!.schema).not.toBe(stampBefore);
    expect(statSync(publishedPath(dir)).ino).not.toBe(catalogBefore);
    // ...and the old day's file was left as it was (hard-linked, same inode): nothing rewrote
    // the history.
    expect(oldDayFile()).toEqual(oldDay);

    // A new connection sees the column, typed and described as the migration declares, in the
    // table's view and in its latest-snapshot view; old rows read NULL, new rows their values.
    const fresh = await DuckDBInstance.create(publishedPath(dir), { access_mode: 'READ_ONLY' });
    const connection = await fresh.connect();
    try {
      expect(
        await select(
          connection,
          "select schema_name || '.' || table_name, data_type, comment from duckdb_columns() where column_name = 'saves' order by all",
        ),
      ).toEqual([
        ['main.latest_post_metrics', 'BIGINT', 'times the post was saved'],
        ['main.post_metrics', 'BIGINT', 'times the post was saved'],
      ]);
      expect(await select(connection, 'select max(version)::integer from schema_migrations')).toEqual([[99]]);
      expect(
        await select(
          connection,
          `select snapshot_date::varchar, count(*)::integer, count(saves)::integer, list(saves order by post_id)
             from post_metrics group by all order by all`,
        ),
      ).toEqual([
        [OLD_DAY, POSTS, 0, { items: [null, null, null] }],
        [NEW_DAY, POSTS, POSTS, { items: [7n, 8n, 9n] }],
      ]);
      expect(
        await select(
          connection,
          'select snapshot_date::varchar, list(saves order by post_id) from latest_post_metrics group by all',
        ),
      ).toEqual([[NEW_DAY, { items: [7n, 8n, 9n] }]]);
    } finally {
      connection.closeSync();
      fresh.closeSync();
    }

    // The connection held since before the change still queries without error and sees the new
    // day (the views read the lake at each query). It keeps the catalog it opened: DuckDB
    // does not show an open connection a catalog file replaced by rename, so its views are the
    // previous ones, without the new column, until it reconnects (docs/lake.md, "Readers").
    expect(
      await select(
        held.connection,
        'select snapshot_date::varchar, count(*)::integer from post_metrics group by all order by all',
      ),
    ).toEqual([
      [OLD_DAY, POSTS],
      [NEW_DAY, POSTS],
    ]);
    expect(
      await select(
        held.connection,
        "select count(*)::integer from duckdb_columns() where table_name = 'post_metrics' and column_name = 'saves'",
      ),
    ).toEqual([[0]]);
    await expect(select(held.connection, 'select saves from post_metrics')).rejects.toThrow(/saves/);
  });
});
