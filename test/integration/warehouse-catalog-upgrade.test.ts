/**
 * A data directory of an earlier release, whose catalog has the internal schema `lake_latest`
 * (14 views that BI tools listed beside the real ones) and no descriptions: its first publish,
 * or a `catalog rebuild`, writes the catalog of this release, with neither left over and every
 * table, view and column described; readers' SQL keeps working.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { refreshCatalog } from '../../src/warehouse/lake/index.js';
import { queryReadOnly } from '../../src/warehouse/read/query-read-only.js';
import { readOnlyCatalog } from '../helpers/read-only-catalog.js';
import { removableTempDir } from '../helpers/temp-dir.js';
import { stageAndPublish } from '../helpers/warehouse-temp.js';

/** Written by an earlier release (test/fixtures/warehouse/README.md): its catalog has lake_latest. */
const FIXTURE = join('test', 'fixtures', 'warehouse', 'lake-release-0.1.0-calendar.tar.gz');

function extract(dir: string): string {
  mkdirSync(dir, { recursive: true });
  execFileSync('tar', ['xzf', FIXTURE, '-C', dir]);
  return dir;
}

/** The catalog's schemas holding views, and its tables, views and columns with no description. */
async function catalogState(dir: string): Promise<{ schemas: string[]; undescribed: string[] }> {
  const catalog = await readOnlyCatalog(dir);
  try {
    const rows = async (sql: string) =>
      (await catalog.connection.runAndReadAll(sql)).getRows().map((row) => String(row[0]));
    return {
      schemas: await rows(
        'select distinct schema_name from duckdb_views() where database_name = current_database() and not internal order by 1',
      ),
      undescribed: await rows(
        `select table_name || '.' || column_name from duckdb_columns()
          where database_name = current_database() and not internal and comment is null
         union all
         select view_name from duckdb_views() where database_name = current_database() and not internal and comment is null
         order by 1`,
      ),
    };
  } finally {
    catalog.close();
  }
}

describe("an earlier release's catalog (with lake_latest, without descriptions)", () => {
  const data = removableTempDir('cw-catalog-upgrade-');
  afterAll(() => data.remove());

  it('is replaced at the first publish', async () => {
    const dir = extract(join(data.dir, 'publish'));
    expect((await catalogState(dir)).schemas).toEqual(['lake_latest', 'main']);
    await stageAndPublish(dir, '2026-11-13', ['all'], { runId: 'next' });
    expect(await catalogState(dir)).toEqual({ schemas: ['main'], undescribed: [] });
    const leaders = await queryReadOnly(dir, 'select count(*) from influencer_leaderboard');
    expect(leaders.rows[0]![0]).toBeGreaterThan(0);
  }, 300_000);

  it('is replaced by `catalog rebuild`', async () => {
    const dir = extract(join(data.dir, 'rebuild'));
    expect(await refreshCatalog(dir, { force: true })).toBe('rebuilt');
    expect(await catalogState(dir)).toEqual({ schemas: ['main'], undescribed: [] });
    const latest = await queryReadOnly(
      dir,
      'select max(snapshot_date)::varchar from latest_campaign_metrics',
    );
    expect(latest.rows).toEqual([['2026-11-12']]);
  }, 300_000);
});
