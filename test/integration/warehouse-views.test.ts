import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyMigrations } from '../../src/warehouse/duckdb/apply-migrations.js';
import { LATEST_FACTS, listViews } from '../../src/warehouse/duckdb/create-views.js';
import { openDatabase } from '../../src/warehouse/duckdb/open-database.js';
import { publishStream } from '../../src/warehouse/publish-stream.js';
import { queryReadOnly } from '../../src/warehouse/read/query-read-only.js';
import { removableTempDir } from '../helpers/temp-dir.js';
import { sampleStreamBatch } from '../helpers/warehouse-stream-rows.js';
import { stageAndPublish } from '../helpers/warehouse-temp.js';

/** The tables the migrations define (each a view of the same name over the lake). */
async function migratedTables(): Promise<string[]> {
  const db = await openDatabase(':memory:');
  try {
    await applyMigrations(db.connection);
    const reader = await db.connection.runAndReadAll(
      "select table_name from duckdb_tables() where table_name <> 'schema_migrations'",
    );
    return reader.getRows().map((row) => String(row[0]));
  } finally {
    db.close();
  }
}

/** Reads a whole view as row objects. */
async function view(dir: string, name: string, orderBy = '1'): Promise<Record<string, unknown>[]> {
  const { columns, rows } = await queryReadOnly(dir, `select * from ${name} order by ${orderBy}`);
  return rows.map((row) => Object.fromEntries(columns.map((c, i) => [c, row[i]])));
}

describe('analyst views on a loaded warehouse', () => {
  const data = removableTempDir('cw-warehouse-');
  beforeAll(async () => {
    await stageAndPublish(data.dir, '2026-11-19', ['all', 'vip'], { campaigns: ['c1', 'c2'] });
    await stageAndPublish(data.dir, '2026-11-20', ['all'], { runId: 'r2', campaigns: ['c1', 'c2'] });
    await publishStream(data.dir, sampleStreamBatch());
  });
  afterAll(() => data.remove());

  it('every view of sql/warehouse/views is created and runs', async () => {
    const { rows } = await queryReadOnly(
      data.dir,
      "select view_name from duckdb_views() where not internal and schema_name = 'main'",
    );
    // The migrations' tables are views over the lake too: the analyst views are the others.
    const lakeTables = await migratedTables();
    const created = rows
      .map((row) => row[0])
      .filter((name) => !lakeTables.includes(String(name)))
      .sort();
    const expected = [
      ...listViews().map((v) => v.name),
      ...LATEST_FACTS.map((fact) => `latest_${fact}`),
    ].sort();
    expect(created).toEqual(expected);
    for (const name of expected) {
      const result = await queryReadOnly(data.dir, `select count(*) from ${name}`);
      expect(result.rows[0]![0], name).toBeGreaterThan(0);
    }
  });

  it('latest_<fact> keeps the latest snapshot_date of each segment', async () => {
    const rows = await view(data.dir, 'latest_campaign_metrics', 'segment, campaign_id');
    expect(rows.map((r) => [r.segment, r.campaign_id, r.snapshot_date])).toEqual([
      ['all', 'c1', '2026-11-20'],
      ['all', 'c2', '2026-11-20'],
      ['vip', 'c1', '2026-11-19'],
      ['vip', 'c2', '2026-11-19'],
    ]);
    const profiles = await view(data.dir, 'latest_influencer_profiles');
    expect(new Set(profiles.map((r) => r.snapshot_date))).toEqual(new Set(['2026-11-20']));
  });

  it('campaign_network_stats_wide pivots stats, reach as stats_reach', async () => {
    const rows = await view(
      data.dir,
      "campaign_network_stats_wide where segment = 'all' and snapshot_date = '2026-11-20' and campaign_id = 'c1'",
      'network',
    );
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({
      network: 'instagram',
      likes: 200,
      comments: 50,
      stats_reach: 1800,
      saved: null,
    });
  });

  it('network_breakdown shares add up to 1 per campaign and reach is per network', async () => {
    const rows = await view(
      data.dir,
      "network_breakdown where segment = 'all' and snapshot_date = '2026-11-20' and campaign_id = 'c1'",
      'network',
    );
    expect(rows.map((r) => r.share_of_posts)).toEqual([0.5, 0.5]);
    expect(rows[0]).toMatchObject({ reach: 2000, campaign_total_reach: 3000, campaign_name: 'Campaign c1' });
  });

  it("latest_network_breakdown is network_breakdown at each segment's latest snapshot", async () => {
    const latest = await view(data.dir, 'latest_network_breakdown', 'segment, campaign_id, network');
    const all = await view(
      data.dir,
      "network_breakdown where (segment, snapshot_date) in (('all', '2026-11-20'), ('vip', '2026-11-19'))",
      'segment, campaign_id, network',
    );
    expect(latest.length).toBeGreaterThan(0);
    expect(new Set(latest.map((r) => `${r.segment} ${r.snapshot_date}`))).toEqual(
      new Set(['all 2026-11-20', 'vip 2026-11-19']),
    );
    expect(latest).toEqual(all);
  });

  it('influencer_leaderboard ranks the latest all-segment figures with profiles', async () => {
    const rows = await view(data.dir, "influencer_leaderboard where campaign_id = 'c1'", 'engagement_rank');
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({
      snapshot_date: '2026-11-20',
      influencer_id: 'i0',
      engagement_rank: 1,
      emv_rank: 2,
      influence: 50,
      profile_true_reach: 50_000,
    });
  });

  it('sales_vs_budget compares sales per currency with the budget', async () => {
    const rows = await view(
      data.dir,
      "sales_vs_budget where snapshot_date = '2026-11-20' and segment = 'all' and campaign_id = 'c1'",
      'influencer_id',
    );
    expect(rows).toEqual([
      expect.objectContaining({
        influencer_id: 'i0',
        currency: 'EUR',
        sales_amount: 320.5,
        budget: 100,
        sales_to_budget: 3.205,
      }),
      expect.objectContaining({ influencer_id: 'i1', currency: null, sales_amount: null }),
    ]);
  });

  it('latest_sync shows the last succeeded run', async () => {
    const rows = await view(data.dir, 'latest_sync');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ run_id: 'r2', snapshot_date: '2026-11-20' });
    expect(rows[0]!.hours_since_finished).toBeGreaterThan(0);
  });

  it('stream views count documents once per search and list the latest', async () => {
    const daily = await view(data.dir, 'stream_documents_daily', 'day, source_name');
    expect(daily).toEqual([
      expect.objectContaining({
        day: '2026-11-20',
        search_id: 7,
        source_name: 'Daily News',
        documents: 2,
        hooks: 2,
      }),
      expect.objectContaining({
        day: '2026-11-21',
        search_id: 7,
        source_name: 'Daily News',
        documents: 1,
        hooks: 1,
      }),
    ]);
    const latest = await view(data.dir, 'latest_stream_documents', 'recency_rank');
    expect(latest.map((r) => r.document_id)).toEqual(['d3', 'd2', 'd1']);
  });
});

describe('data check views', () => {
  const data = removableTempDir('cw-warehouse-');
  beforeAll(async () => {
    await stageAndPublish(data.dir, '2026-11-19', ['all'], { campaigns: ['c1'] });
    await stageAndPublish(data.dir, '2026-11-20', ['all'], { runId: 'r2', campaigns: ['c1'] });
  });
  afterAll(() => data.remove());

  it('data_checks and data_check_failures show each snapshot, schema_drift when a name was first seen', async () => {
    const checks = await view(data.dir, 'data_checks', 'snapshot_date, check_name');
    expect(checks.map((c) => [c.snapshot_date, c.check_name, c.status, c.failing])).toEqual([
      ['2026-11-19', 'campaign_posts_counted', 'failed', 1],
      ['2026-11-19', 'post_influencer_listed', 'passed', 0],
      ['2026-11-20', 'campaign_posts_counted', 'failed', 1],
      ['2026-11-20', 'post_influencer_listed', 'passed', 0],
    ]);
    const failures = await view(data.dir, 'data_check_failures', 'snapshot_date');
    expect(failures[0]).toEqual({
      snapshot_date: '2026-11-19',
      segment: 'all',
      check_name: 'campaign_posts_counted',
      kind: 'rule',
      campaign_id: 'c1',
      entity_id: null,
      expected: 4,
      actual: 7,
      compared_with: null,
    });
    const drift = await view(data.dir, 'schema_drift', 'snapshot_date');
    expect(drift.map((d) => [d.snapshot_date, d.name, d.first_seen])).toEqual([
      ['2026-11-19', 'clicks', '2026-11-19'],
      ['2026-11-20', 'clicks', '2026-11-19'],
    ]);
  });
});
