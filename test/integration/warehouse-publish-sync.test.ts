import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStaging } from '../../src/warehouse/open-staging.js';
import { publishRunRecord } from '../../src/warehouse/publish-run-record.js';
import { publishSync } from '../../src/warehouse/publish-sync.js';
import { queryReadOnly } from '../../src/warehouse/query-read-only.js';
import { sampleRun, sampleUnitRows } from '../helpers/warehouse-rows.js';
import { stageAndPublish, tempDataDir } from '../helpers/warehouse-temp.js';

async function count(dir: string, table: string): Promise<number> {
  const { rows } = await queryReadOnly(dir, `select count(*) from ${table}`);
  return rows[0]![0] as number;
}

describe('publishSync', () => {
  let data: ReturnType<typeof tempDataDir>;
  beforeEach(() => {
    data = tempDataDir();
  });
  afterEach(() => data.remove());

  it('publishes staged rows and records the run with rows_written', async () => {
    const result = await stageAndPublish(data.dir, '2026-11-20', ['all', 'vip']);
    expect(result.rowsByTable.post_metrics).toBe(8);
    expect(result.rowsByTable.influencer_profiles).toBe(2);
    expect(await count(data.dir, 'post_metrics')).toBe(8);
    expect(await count(data.dir, 'posts')).toBe(4);
    const { rows } = await queryReadOnly(data.dir, 'select run_id, status, rows_written from sync_runs');
    expect(rows).toEqual([['r1', 'succeeded', result.rowsWritten]]);
  });

  it('re-publishing the same snapshot date and segment replaces its rows (no duplicates)', async () => {
    await stageAndPublish(data.dir, '2026-11-20', ['all']);
    const tables = [
      'campaign_metrics',
      'post_metrics',
      'post_stats',
      'influencer_profiles',
      'influencer_tag_assignments',
      'posts',
      'campaigns',
    ];
    const before = await Promise.all(tables.map((t) => count(data.dir, t)));
    await stageAndPublish(data.dir, '2026-11-20', ['all'], { runId: 'r2' });
    expect(await Promise.all(tables.map((t) => count(data.dir, t)))).toEqual(before);
    expect(await count(data.dir, 'sync_runs')).toBe(2);
    await stageAndPublish(data.dir, '2026-11-21', ['all'], { runId: 'r3' });
    expect(await count(data.dir, 'post_metrics')).toBe(8);
  });

  it('a unit appended twice in staging is published once (deduplicated on the key)', async () => {
    const staging = await openStaging(data.dir, 'dup');
    const rows = sampleUnitRows({ snapshotDate: '2026-11-20', segment: 'all' });
    await staging.append(rows);
    await staging.append(rows);
    await staging.close();
    await publishSync(data.dir, {
      stagingPath: staging.path,
      snapshotDate: '2026-11-20',
      segments: ['all'],
      run: sampleRun('d', '2026-11-20'),
    });
    expect(await count(data.dir, 'post_stats')).toBe(8);
    expect(await count(data.dir, 'influencers')).toBe(2);
  });

  it('clearUnit removes what an interrupted attempt staged for one unit', async () => {
    const staging = await openStaging(data.dir, 'clear');
    await staging.append(sampleUnitRows({ snapshotDate: '2026-11-20', segment: 'all', campaignId: 'c1' }));
    await staging.append(sampleUnitRows({ snapshotDate: '2026-11-20', segment: 'all', campaignId: 'c2' }));
    await staging.clearUnit('all', 'c1');
    await staging.append(
      sampleUnitRows({ snapshotDate: '2026-11-20', segment: 'all', campaignId: 'c1', posts: 2 }),
    );
    await staging.close();
    await publishSync(data.dir, {
      stagingPath: staging.path,
      snapshotDate: '2026-11-20',
      segments: ['all'],
      run: sampleRun('c', '2026-11-20'),
    });
    const { rows } = await queryReadOnly(
      data.dir,
      'select campaign_id, count(*) from post_metrics group by all order by 1',
    );
    expect(rows).toEqual([
      ['c1', 2],
      ['c2', 4],
    ]);
    const tags = await queryReadOnly(data.dir, 'select count(*) from posts');
    expect(tags.rows[0]![0]).toBe(6);
  });

  it('only segments listed as fully fetched are replaced', async () => {
    await stageAndPublish(data.dir, '2026-11-20', ['all', 'vip']);
    const staging = await openStaging(data.dir, 'partial');
    await staging.append(sampleUnitRows({ snapshotDate: '2026-11-20', segment: 'vip', posts: 2 }));
    await staging.close();
    await publishSync(data.dir, {
      stagingPath: staging.path,
      snapshotDate: '2026-11-20',
      segments: [],
      run: sampleRun('p', '2026-11-20', 'failed'),
    });
    expect(await count(data.dir, "post_metrics where segment = 'vip'")).toBe(4);
  });

  it('entities keep their first_seen_at and move last_seen_at forward', async () => {
    await stageAndPublish(data.dir, '2026-11-20');
    await stageAndPublish(data.dir, '2026-11-21', ['all'], { runId: 'r2' });
    const { rows } = await queryReadOnly(
      data.dir,
      "select first_seen_at, last_seen_at from influencers where influencer_id = 'i0'",
    );
    expect(rows).toEqual([['2026-11-20T19:00:00.000Z', '2026-11-21T19:00:00.000Z']]);
  });

  it('publishRunRecord publishes only the run row', async () => {
    await stageAndPublish(data.dir, '2026-11-20');
    await publishRunRecord(data.dir, sampleRun('failed-1', '2026-11-21', 'failed'));
    const { rows } = await queryReadOnly(
      data.dir,
      'select run_id, status, error from sync_runs order by run_id',
    );
    expect(rows).toEqual([
      ['failed-1', 'failed', 'boom'],
      ['r1', 'succeeded', null],
    ]);
    expect(await count(data.dir, 'post_metrics')).toBe(4);
  });
});
