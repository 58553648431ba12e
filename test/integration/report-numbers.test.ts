/**
 * `report` on a warehouse the simulator filled over four nights, plus streamed documents:
 * every table of the page equals SQL written here against the warehouse's tables and
 * views (not the report's own queries), and the page references nothing outside itself.
 */
import { cpSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_DAYS, TOP_CAMPAIGNS, TOP_INFLUENCERS } from '../../src/report/report-options.js';
import { writeReport } from '../../src/report/write-report.js';
import { openDatabase } from '../../src/warehouse/duckdb/open-database.js';
import { publishedPath } from '../../src/warehouse/duckdb/warehouse-paths.js';
import { externalReferences, tableRows } from '../helpers/report-html.js';
import { REPORT_NIGHTS, REPORT_SEGMENT, reportWarehouse } from '../helpers/report-warehouse.js';
import { rows } from '../helpers/sync-harness.js';
import { tempDir } from '../helpers/temp-dir.js';

type Cells = (string | number | null)[][];

/** The query's rows as cells: numbers kept as numbers (compared with a rounding tolerance). */
async function sql(dataDir: string, query: string): Promise<Cells> {
  return (await rows(dataDir, query)).map((r) => Object.values(r) as (string | number | null)[]);
}

/** Table cells (text) against SQL cells: numbers within 1e-9 relative (double sums may differ in order). */
function expectSame(table: string[][], expected: Cells): void {
  expect(table.length).toBe(expected.length);
  expect(table.length).toBeGreaterThan(0);
  table.forEach((row, i) => {
    const want = expected[i]!;
    expect(row.length, `row ${i}`).toBe(want.length);
    row.forEach((cell, j) => {
      const value = want[j];
      if (typeof value === 'number')
        expect(Number(cell)).toBeCloseTo(value, Math.max(2, 9 - Math.ceil(Math.log10(Math.abs(value) + 1))));
      else expect(cell, `row ${i} column ${j}`).toBe(value === null ? '—' : String(value));
    });
  });
}

const label = "coalesce(c.name, c.campaign_id) || ' (' || c.campaign_id || ')'";

/**
 * The report of a copy of the warehouse whose data-check views `sql` replaced (made-up
 * failures, or views of another shape).
 */
async function reportWithViews(dataDir: string, sql: string): Promise<string> {
  const copy = tempDir('cw-report-views-');
  cpSync(publishedPath(dataDir), publishedPath(copy));
  const db = await openDatabase(publishedPath(copy));
  try {
    await db.connection.run(sql);
  } finally {
    db.close();
  }
  const out = join(copy, 'report.html');
  await writeReport({ dataDir: copy, out, campaigns: [], segment: 'all', days: DEFAULT_DAYS });
  return readFileSync(out, 'utf8');
}

describe('report: the numbers in its tables equal SQL on the warehouse', () => {
  let dataDir: string;
  let html: string;

  beforeAll(async () => {
    dataDir = await reportWarehouse();
    const out = join(dataDir, 'report.html');
    await writeReport({ dataDir, out, campaigns: [], segment: 'all', days: DEFAULT_DAYS });
    html = readFileSync(out, 'utf8');
  }, 120_000);

  it('references nothing outside the file: no script, stylesheet, import, url() or src/href', () => {
    expect(html).toContain('<svg');
    expect(externalReferences(html)).toEqual([]);
    expect(html).not.toMatch(/https?:\/\/(?!www\.w3\.org\/(?:2000\/svg|1999\/xlink))/);
    // Five inline SVGs in one document: an id used twice would cross-wire their references.
    const ids = [...html.matchAll(/\sid="([^"]+)"/g)].map(([, id]) => id);
    expect(ids.length).toBeGreaterThan(10);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('freshness: latest snapshot, last successful sync, last sink publish, the data checks of the latest snapshot', async () => {
    const [[latest, runId]] = (await sql(
      dataDir,
      "select max(snapshot_date)::varchar, arg_max(run_id, finished_at) from sync_runs where status = 'succeeded'",
    )) as [[string, string]];
    expect(latest).toBe(REPORT_NIGHTS.at(-1));
    expect(html).toContain(`<dd id="latest-snapshot">${latest}</dd>`);
    expect(html).toMatch(new RegExp(`<dd id="last-sync">[^\n]*run <code>${runId}</code>`));
    expect(html).toMatch(
      /<dd id="last-publish">newest published delivery received 2026-11-20T23:05:00Z; 2 deliveries, 18 documents kept/,
    );
    // Every check that ran on the snapshot, rule and history, as `status` counts them.
    const [[rules, history, failing]] = (await sql(
      dataDir,
      `select count(*) filter (where kind = 'rule')::int, count(*) filter (where kind = 'history')::int,
              count(*) filter (where failing > 0)::int
         from data_checks where snapshot_date = '${latest}' and segment = 'all'`,
    )) as [[number, number, number]];
    expect(rules).toBeGreaterThan(10);
    expect(history).toBeGreaterThan(0);
    const summary =
      /<dd id="checks-summary"><span class="(ok|warn)">(.*?)<\/span>.*\(snapshot (.*)\)<\/dd>/.exec(html);
    expect(summary?.[1]).toBe(failing ? 'warn' : 'ok');
    expect(summary?.[2]).toMatch(new RegExp(`^(all |\\d+ of )${rules + history} checks (passed|failing)$`));
    expect(summary?.[3]).toBe(latest);
  });

  it('top campaigns over time: engagement and EMV per snapshot of the 5 most engaging', async () => {
    const expected = await sql(
      dataDir,
      `with latest as (select * from latest_campaign_metrics where segment = 'all'),
       top as (select campaign_id from latest order by total_engagement desc, campaign_id limit ${TOP_CAMPAIGNS})
       select m.snapshot_date::varchar, ${label}, m.total_engagement, m.total_emv
       from campaign_metrics m join campaigns c using (campaign_id)
       where m.segment = 'all' and m.campaign_id in (select campaign_id from top)
       order by m.snapshot_date, m.campaign_id`,
    );
    expect(expected).toHaveLength(REPORT_NIGHTS.length * TOP_CAMPAIGNS);
    expectSame(tableRows(html, 't-campaigns'), expected);
  });

  it('networks: posts, engagement and EMV summed per network; reach per campaign and network, never summed', async () => {
    expectSame(
      tableRows(html, 't-networks'),
      await sql(
        dataDir,
        `select network, count(distinct campaign_id), sum(num_posts), sum(engagement), sum(emv)
         from latest_campaign_network_metrics where segment = 'all'
         group by network order by sum(engagement) desc, network`,
      ),
    );
    expectSame(
      tableRows(html, 't-network-reach'),
      await sql(
        dataDir,
        `with top as (select campaign_id from latest_campaign_metrics where segment = 'all'
                      order by total_engagement desc, campaign_id limit ${TOP_CAMPAIGNS})
         select ${label}, n.network, n.reach, m.total_reach
         from network_breakdown n join campaigns c using (campaign_id)
         join latest_campaign_metrics m using (segment, snapshot_date, campaign_id)
         where n.segment = 'all' and n.snapshot_date = '${REPORT_NIGHTS.at(-1)}' and campaign_id in (select * from top)
         order by campaign_id, n.network`,
      ),
    );
  });

  it('top influencers: engagement summed over their campaigns, with posts, EMV and followers', async () => {
    expectSame(
      tableRows(html, 't-influencers'),
      await sql(
        dataDir,
        `select coalesce(i.name, m.influencer_id), m.influencer_id, count(*), sum(m.num_posts), sum(m.engagement),
                sum(m.emv), any_value(p.followers)
         from latest_influencer_campaign_metrics m
         left join influencers i using (influencer_id)
         left join latest_influencer_profiles p using (influencer_id)
         where m.segment = 'all'
         group by all order by sum(m.engagement) desc, m.influencer_id limit ${TOP_INFLUENCERS}`,
      ),
    );
  });

  it('sales against the budget of the selling influencers, per currency', async () => {
    expectSame(
      tableRows(html, 't-sales'),
      await sql(
        dataDir,
        `select s.currency, sum(s.amount), sum(m.budget), count(*)
         from latest_influencer_sales s
         join latest_influencer_campaign_metrics m using (segment, campaign_id, influencer_id)
         where s.segment = 'all' group by s.currency order by sum(s.amount) desc, s.currency`,
      ),
    );
  });

  it('streamed documents per day and search type', async () => {
    const expected = await sql(
      dataDir,
      `select cast(coalesce(published_date, received_at) as date)::varchar as day, search_type,
              count(distinct search_id || '/' || document_id)
       from stream_documents group by all order by day, search_type`,
    );
    expect(expected).toHaveLength(6);
    expectSame(tableRows(html, 't-documents'), expected);
  });

  it('--segment, --campaign and --days narrow every campaign table to what they name', async () => {
    const [[one, two]] = (await sql(dataDir, 'select min(campaign_id), max(campaign_id) from campaigns')) as [
      [string, string],
    ];
    const out = join(tempDir('cw-report-'), 'narrow.html');
    await writeReport({ dataDir, out, campaigns: [two, one], segment: REPORT_SEGMENT, days: 2 });
    const narrow = readFileSync(out, 'utf8');
    expectSame(
      tableRows(narrow, 't-campaigns'),
      await sql(
        dataDir,
        `select m.snapshot_date::varchar, ${label}, m.total_engagement, m.total_emv
         from campaign_metrics m join campaigns c using (campaign_id)
         where m.segment = '${REPORT_SEGMENT}' and m.campaign_id in ('${one}', '${two}')
           and m.snapshot_date >= '${REPORT_NIGHTS.at(-2)}'
         order by m.snapshot_date, m.campaign_id`,
      ),
    );
    expectSame(
      tableRows(narrow, 't-networks'),
      await sql(
        dataDir,
        `select network, count(distinct campaign_id), sum(num_posts), sum(engagement), sum(emv)
         from latest_campaign_network_metrics where segment = '${REPORT_SEGMENT}' and campaign_id in ('${one}', '${two}')
         group by network order by sum(engagement) desc, network`,
      ),
    );
    expect(narrow).toContain(`Segment <b>${REPORT_SEGMENT}</b> · campaigns: ${two}, ${one}`);
  });

  it('failing data checks are listed up front when the warehouse has the checks views', async () => {
    const [[campaign]] = (await sql(dataDir, 'select min(campaign_id) from campaigns')) as [[string]];
    const snapshot = REPORT_NIGHTS.at(-1);
    // The views as the data checks define them, over rows made up here.
    const page = await reportWithViews(
      dataDir,
      `create table test_checks as select * from (values
         (date '${snapshot}', 'all', 'r1', 'campaign_num_posts', 'rule', 'failed', 5, 1, null::date),
         (date '${snapshot}', 'all', 'r1', 'network_engagement_sum', 'rule', 'passed', 20, 0, null),
         (date '${snapshot}', 'all', 'r1', 'posts_not_vanishing', 'history', 'failed', 20, 1, date '${REPORT_NIGHTS.at(-2)}'),
         (date '${REPORT_NIGHTS[0]}', 'all', 'r0', 'campaign_num_posts', 'rule', 'failed', 5, 3, null))
         t(snapshot_date, segment, run_id, check_name, kind, status, checked, failing, compared_with);
       create or replace view data_checks as select * from test_checks;
       create table test_failures as select * from (values
         (date '${snapshot}', 'all', 'campaign_num_posts', 'rule', '${campaign}', null, 25.0, 22.0),
         (date '${snapshot}', 'all', 'posts_not_vanishing', 'history', '${campaign}', 'p9', 7.0, null),
         (date '${REPORT_NIGHTS[0]}', 'all', 'campaign_num_posts', 'rule', '${campaign}', null, 1.0, 2.0))
         t(snapshot_date, segment, check_name, kind, campaign_id, entity_id, expected, actual);
       create or replace view data_check_failures as select * from test_failures;`,
    );
    expect(page).toMatch(
      /<dd id="checks-summary"><span class="warn">2 of 3 checks failing<\/span>: 1 of 2 rule checks failing[^;]*; 1 of 1 history check failing[^<]*\(snapshot 2026-11-20\)/,
    );
    expect(tableRows(page, 't-checks')).toEqual([
      ['campaign_num_posts', 'rule', 'failed', '5', '1'],
      ['posts_not_vanishing', 'history', 'failed', '20', '1'],
    ]);
    expect(tableRows(page, 't-check-failures')).toEqual([['campaign_num_posts', campaign, '—', '25', '22']]);
    // The history check is in "what changed", with the figure before and after.
    expect(tableRows(page, 't-history-failures')).toEqual([
      ['posts_not_vanishing', campaign, 'p9', '7', '—'],
    ]);
  });

  it('checks views of another shape are said to be unreadable; the rest of the report stands', async () => {
    const page = await reportWithViews(
      dataDir,
      'create or replace view data_checks as select 1 as x; create or replace view data_check_failures as select 1 as y;',
    );
    expect(page).toMatch(
      /<dd id="checks-summary"><span class="warn">recorded, but unreadable<\/span> \([^)]*segment/,
    );
    expect(tableRows(page, 't-campaigns')).toEqual(tableRows(html, 't-campaigns'));
  });
});
