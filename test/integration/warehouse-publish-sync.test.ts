import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { describe, expect, it } from 'vitest';
import { publishWarehouse, upsertEntities } from '../../src/warehouse/lake/index.js';
import { publishRunRecord } from '../../src/warehouse/publish-run-record.js';
import { publishSync } from '../../src/warehouse/publish-sync.js';
import { queryReadOnly } from '../../src/warehouse/read/query-read-only.js';
import { openStaging } from '../../src/warehouse/staging/open-staging.js';
import { tempDirEachTest } from '../helpers/temp-dir.js';
import { sampleRun, sampleUnitRows } from '../helpers/warehouse-rows.js';
import { stageAndPublish } from '../helpers/warehouse-temp.js';

async function count(dir: string, table: string): Promise<number> {
  const { rows } = await queryReadOnly(dir, `select count(*) from ${table}`);
  return rows[0]![0] as number;
}

describe('publishSync', () => {
  const data = tempDirEachTest('cw-warehouse-');

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

  it('rows repeated across units are published once; a staged campaign table keeps its last row per key', async () => {
    const staging = await openStaging(data.dir, 'dup');
    const c1 = sampleUnitRows({ snapshotDate: '2026-11-20', segment: 'all', campaignId: 'c1' });
    await staging.append(c1);
    await staging.append(sampleUnitRows({ snapshotDate: '2026-11-20', segment: 'all', campaignId: 'c2' }));
    const again = c1.campaign_metrics!.map((row) => ({ ...row, num_posts: 99 }));
    await staging.append({ campaign_metrics: again });
    await staging.close();
    await publishSync(data.dir, {
      stagingPath: staging.path,
      snapshotDate: '2026-11-20',
      segments: ['all'],
      run: sampleRun('d', '2026-11-20'),
    });
    // The same two influencers and workspace in both campaigns.
    expect(await count(data.dir, 'influencers')).toBe(2);
    expect(await count(data.dir, 'workspaces')).toBe(1);
    expect(await count(data.dir, 'influencer_profiles')).toBe(2);
    expect(await count(data.dir, 'post_stats')).toBe(16);
    const { rows } = await queryReadOnly(
      data.dir,
      "select num_posts from campaign_metrics where campaign_id = 'c1'",
    );
    expect(rows).toEqual([[99]]);
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

describe('publishWarehouse', () => {
  const data = tempDirEachTest('cw-warehouse-');

  const memoryLimit = async (connection: DuckDBConnection) =>
    String((await connection.runAndReadAll("select current_setting('memory_limit')")).getRows()[0]![0]);

  it('retries a publish that ran out of memory once, with a larger limit, and publishes once', async () => {
    const limits: string[] = [];
    await publishWarehouse(data.dir, async (tx) => {
      limits.push(await memoryLimit(tx.connection));
      await tx.connection.run(
        `insert into memory.main.campaigns values ('c${limits.length}', 'C', null, null, null, null, '{}', now(), now())`,
      );
      await upsertEntities(tx, tx.table('campaigns'), 'select * from memory.main.campaigns');
      if (limits.length === 1)
        throw new Error('Out of Memory Error: could not allocate block of size 256.0 KiB');
    });
    expect(limits).toHaveLength(2);
    expect(limits[1]).not.toBe(limits[0]);
    const { rows } = await queryReadOnly(data.dir, 'select campaign_id from campaigns');
    expect(rows).toEqual([['c2']]);
  });

  it('does not retry other failures, and leaves no published file behind', async () => {
    let calls = 0;
    await expect(
      publishWarehouse(data.dir, async () => {
        calls += 1;
        throw new Error('Binder Error: no such column');
      }),
    ).rejects.toThrow(/Binder Error/);
    expect(calls).toBe(1);
    expect(existsSync(join(data.dir, 'warehouse.duckdb'))).toBe(false);
  });
});
