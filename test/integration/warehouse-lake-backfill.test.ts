import { readlinkSync, renameSync, statSync, symlinkSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { TABLES } from '../../src/contracts/table-registry.js';
import type { Row, TableRows } from '../../src/normalize/rows.js';
import { lakePath, refreshCatalog, versionFiles } from '../../src/warehouse/lake/testing.js';
import { publishSync } from '../../src/warehouse/publish-sync.js';
import { queryReadOnly } from '../../src/warehouse/read/query-read-only.js';
import { openStaging } from '../../src/warehouse/staging/open-staging.js';
import { removableTempDir } from '../helpers/temp-dir.js';
import { sampleRun, sampleUnitRows } from '../helpers/warehouse-rows.js';

const OLD_DAY = '2026-11-20';
const NEW_DAY = '2026-11-21';
const TOTALS = TABLES.campaign_network_metrics.backfilled!.map((b) => b.column);

/** Publishes the sample unit of `date`, its campaign_network_metrics rows changed by `edit`. */
async function publishDay(dataDir: string, date: string, edit: (row: Row) => Row): Promise<void> {
  const rows: TableRows = sampleUnitRows({ snapshotDate: date, segment: 'all' });
  rows.campaign_network_metrics = rows.campaign_network_metrics!.map(edit);
  const staging = await openStaging(dataDir, date);
  await staging.append(rows);
  await staging.close();
  await publishSync(dataDir, {
    stagingPath: staging.path,
    snapshotDate: date,
    segments: ['all'],
    run: sampleRun(date, date),
  });
}

/** As the release before migration 005 published its rows: no campaign totals. */
const withoutTotals = (row: Row): Row => ({ ...row, ...Object.fromEntries(TOTALS.map((c) => [c, null])) });

/** campaign_network_metrics' data files: place (without the version id) -> inode. */
function networkFiles(dataDir: string): Map<string, number> {
  const dir = join(lakePath(dataDir), 'campaign_network_metrics');
  return new Map(
    versionFiles(dir)
      .filter((f) => !f.includes('_schema'))
      .map((f) => [f.replace(/\.[0-9a-z]+\.parquet$/, ''), statSync(join(dir, f)).ino]),
  );
}

async function shares(dataDir: string, view: string): Promise<unknown[][]> {
  return (
    await queryReadOnly(
      dataDir,
      `select snapshot_date::varchar, network, share_of_posts, share_of_emv, campaign_total_reach from ${view} order by 1, 2`,
    )
  ).rows;
}

describe('campaign totals computed for files published without them (TableSpec.backfilled)', () => {
  const data = removableTempDir('cw-lake-backfill-');
  afterAll(() => data.remove());

  it('rewrites the files that lack them, once, and leaves a file whose totals are NULL because its figures are', async () => {
    const dir = join(data.dir, 'once');
    await publishDay(dir, OLD_DAY, withoutTotals);
    // This release's day, every network's EMV unknown: its campaign_emv is NULL by rule.
    await publishDay(dir, NEW_DAY, (row) => ({ ...row, emv: null, campaign_emv: null }));
    expect(await shares(dir, 'network_breakdown')).toEqual([
      [OLD_DAY, 'instagram', null, null, null],
      [OLD_DAY, 'tiktok', null, null, null],
      [NEW_DAY, 'instagram', 0.5, null, 3000],
      [NEW_DAY, 'tiktok', 0.5, null, 3000],
    ]);
    const before = networkFiles(dir);

    expect(await refreshCatalog(dir, { force: true })).toBe('rebuilt');
    const after = networkFiles(dir);
    expect([...after.keys()].sort()).toEqual([...before.keys()].sort());
    const rewritten = [...after].filter(([place, ino]) => before.get(place) !== ino).map(([place]) => place);
    // campaign_network_metrics is a compactFiles table: OLD_DAY's rows are its ten days' file.
    expect(rewritten).toEqual([`last_date=${OLD_DAY}/2026-11-D2~all`]);
    expect(await shares(dir, 'network_breakdown')).toEqual([
      [OLD_DAY, 'instagram', 0.5, 0.5, 3000],
      [OLD_DAY, 'tiktok', 0.5, 0.5, 3000],
      [NEW_DAY, 'instagram', 0.5, null, 3000],
      [NEW_DAY, 'tiktok', 0.5, null, 3000],
    ]);

    // Once: the next schema change (here a rebuild) rewrites nothing.
    expect(await refreshCatalog(dir, { force: true })).toBe('rebuilt');
    expect(networkFiles(dir)).toEqual(after);
  });

  it('rebuilds a latest tree left on files without them (a crash between the table swap and its tree swap)', async () => {
    const dir = join(data.dir, 'crash');
    await publishDay(dir, OLD_DAY, withoutTotals);
    const link = join(lakePath(dir), '_latest', 'campaign_network_metrics'); // the table's latest tree
    const staleTree = readlinkSync(link);
    expect(await refreshCatalog(dir, { force: true })).toBe('rebuilt');
    expect(await shares(dir, 'latest_network_breakdown')).toEqual([
      [OLD_DAY, 'instagram', 0.5, 0.5, 3000],
      [OLD_DAY, 'tiktok', 0.5, 0.5, 3000],
    ]);
    // The table's new version live, its latest tree still the previous one.
    const temp = `${link}.stale`;
    symlinkSync(staleTree, temp);
    renameSync(temp, link);
    expect(resolve(lakePath(dir), '_latest', readlinkSync(link))).toBe(
      resolve(lakePath(dir), '_latest', staleTree),
    );
    expect((await shares(dir, 'latest_network_breakdown')).map((row) => row[2])).toEqual([null, null]);

    expect(await refreshCatalog(dir, { force: true })).toBe('rebuilt');
    expect(await shares(dir, 'latest_network_breakdown')).toEqual([
      [OLD_DAY, 'instagram', 0.5, 0.5, 3000],
      [OLD_DAY, 'tiktok', 0.5, 0.5, 3000],
    ]);
  });
});
