/**
 * The report page from hand-made data, no warehouse: every value is escaped (in the HTML
 * and in the charts' SVG), and a section without rows says so instead of drawing nothing.
 */
import { describe, expect, it } from 'vitest';
import { dayAxis, symlogTicks } from '../../src/report/chart-layout.js';
import { NO_FACTS, type ReportData } from '../../src/report/load-report-data.js';
import { renderChart } from '../../src/report/render-chart.js';
import { renderReportPage } from '../../src/report/report-page.js';
import { externalReferences, tableRows } from '../helpers/report-html.js';

const NASTY = `<img src=x onerror="alert(1)"> & 'quoted' </table>`;

const empty: ReportData = {
  generatedAt: '2026-11-21T08:00:00.000Z',
  segment: 'all',
  campaigns: [],
  days: 30,
  window: null,
  documentsWindow: null,
  freshness: { sync_run_id: null, sync_finished_at: null, last_delivery_received_at: null },
  checks: { recorded: false },
  ...NO_FACTS,
  documents: [],
};

const nasty: ReportData = {
  ...empty,
  campaigns: [NASTY],
  window: { from: '2026-11-20', to: '2026-11-21' },
  freshness: {
    sync_run_id: NASTY,
    sync_snapshot_date: '2026-11-21',
    sync_finished_at: '2026-11-21T22:00:00Z',
  },
  checks: {
    recorded: true,
    snapshot: '2026-11-21',
    checks: [{ check_name: NASTY, kind: 'rule', status: 'failed', checked: 3, failing: 1 }],
    failures: [{ check_name: NASTY, campaign_id: NASTY, entity_id: NASTY, expected: 2, actual: 3 }],
    historyFailures: [
      {
        check_name: NASTY,
        campaign_id: NASTY,
        entity_id: NASTY,
        before: 3,
        after: 1,
        compared_with: '2026-11-20',
      },
    ],
  },
  changes: [
    {
      campaign_id: 'c1',
      campaign: NASTY,
      previous_snapshot: '2026-11-20',
      engagement_before: 12,
      engagement: 10,
      engagement_change: -2,
      emv_before: 1.75,
      emv: 1.5,
      emv_change: -0.25,
    },
  ],
  followed: [{ campaign_id: 'c1', campaign: NASTY, rank: 1 }],
  history: [{ snapshot_date: '2026-11-21', campaign_id: 'c1', engagement: 10, emv: 1.5 }],
  networkTotals: [{ network: NASTY, campaigns: 1, posts: 2, engagement: 10, emv: 1.5 }],
  influencers: [
    {
      influencer_id: NASTY,
      influencer: NASTY,
      campaigns: 1,
      posts: 2,
      engagement: 10,
      emv: 1.5,
      followers: null,
    },
  ],
  sales: [{ currency: NASTY, sales: 5, budget: 10, influencers: 1 }],
  documents: [{ day: '2026-11-21', search_type: NASTY, documents: 4 }],
};

describe('report page', () => {
  it('escapes every value, in tables, text and charts', async () => {
    const html = await renderReportPage(nasty);
    expect(html).not.toContain('<img');
    expect(html).not.toContain('</table> &');
    expect(externalReferences(html)).toEqual([]);
    expect(html).toContain(
      '&lt;img src=x onerror=&quot;alert(1)&quot;&gt; &amp; &#39;quoted&#39; &lt;/table&gt;',
    );
    expect(tableRows(html, 't-networks')).toEqual([[NASTY, '1', '2', '10', '1.5']]);
    expect(tableRows(html, 't-check-failures')).toEqual([[NASTY, NASTY, NASTY, '2', '3']]);
    expect(tableRows(html, 't-checks')).toEqual([[NASTY, 'rule', 'failed', '3', '1']]);
    expect(tableRows(html, 't-history-failures')).toEqual([[NASTY, NASTY, NASTY, '3', '1']]);
    expect(tableRows(html, 't-what-changed')).toEqual([[NASTY, '12', '10', '-2', '1.75', '1.5', '-0.25']]);
    // Six charts drawn, each wide and narrow, each label escaped inside its SVG.
    expect(html.match(/<svg /g)).toHaveLength(12);
    expect(html.match(/<div class="chart-narrow"><svg /g)).toHaveLength(6);
  });

  it('the reference finder finds what it looks for, and not escaped text', () => {
    const page = `<p>&lt;img src=x&gt; url(a)</p><svg xmlns="http://www.w3.org/2000/svg"><text>@import</text></svg>`;
    expect(externalReferences(page)).toEqual([]);
    for (const bad of [
      '<script>1</script>',
      '<img alt="a" src="http://x/a.png">',
      '<link rel=stylesheet href=//x/a.css>',
      '<style>@import "x.css";</style>',
      '<div style="background: url(https://x/a.png)">',
      '<svg><image xlink:href="a.png"/></svg>',
      '<p onclick="x()">',
    ])
      expect(externalReferences(bad), bad).not.toEqual([]);
  });

  it('a section without rows says so and draws no chart', async () => {
    const html = await renderReportPage(empty);
    expect(html).not.toContain('<svg');
    expect(html.match(/<p class="empty" role="note">/g)).toHaveLength(6);
    expect(html).toContain('Only one snapshot in this segment: nothing to compare yet.');
    expect(html).toContain('No streamed documents in the warehouse.');
    expect(html).toContain('<dd id="checks-summary">no data checks recorded</dd>');
    expect(html).toContain('<dd id="last-sync"><span class="warn">none recorded</span></dd>');
    expect(externalReferences(html)).toEqual([]);
  });

  it('counts skipped checks apart (nothing to compare is not a pass), and an all-zero chart reads 0', async () => {
    const check = (name: string, status: string) => ({
      check_name: name,
      kind: 'rule',
      status,
      checked: 0,
      failing: 0,
    });
    const beauty: ReportData = {
      ...empty,
      segment: 'beauty',
      checks: {
        recorded: true,
        snapshot: '2026-11-21',
        checks: [check('a', 'passed'), check('b', 'passed'), check('c', 'skipped')],
        failures: [],
        historyFailures: [],
      },
      networkTotals: [{ network: 'tiktok', campaigns: 1, posts: 0, engagement: 0, emv: 0 }],
    };
    const html = await renderReportPage(beauty);
    expect(html).toContain(
      '<dd id="checks-summary"><span class="ok">2 of 3 checks passed</span>, 1 skipped (nothing to compare): 3 rule checks, none failing (snapshot 2026-11-21)</dd>',
    );
    expect(html).not.toContain('all 3 checks passed');
    expect(html).toContain('<svg');
    expect(html).not.toContain('0.000000');
  });

  it('the headline counts every check that ran, rule and history: one failing history check turns it from green to a warning', async () => {
    const check = (name: string, kind: string, failing: number) => ({
      check_name: name,
      kind,
      status: failing ? 'failed' : 'passed',
      checked: 10,
      failing,
      compared_with: kind === 'history' ? '2026-11-20' : null,
    });
    const checks = (anomaly: number): ReportData['checks'] => ({
      recorded: true,
      snapshot: '2026-11-21',
      checks: [
        ...Array.from({ length: 16 }, (_, i) => check(`rule_${i}`, 'rule', 0)),
        ...Array.from({ length: 6 }, (_, i) => check(`history_${i}`, 'history', 0)),
        check('campaign_engagement_anomaly', 'history', anomaly),
      ],
      failures: [],
      historyFailures: [],
    });
    const passing = await renderReportPage({ ...empty, checks: checks(0) });
    expect(passing).toContain(
      '<dd id="checks-summary"><span class="ok">all 23 checks passed</span>: 16 rule checks, none failing; 7 history checks, none failing, against 2026-11-20 (snapshot 2026-11-21)</dd>',
    );
    expect(passing).not.toContain('id="t-checks"');

    const failing = await renderReportPage({ ...empty, checks: checks(1) });
    const summary = /<dd id="checks-summary">(.*)<\/dd>/.exec(failing)?.[1];
    expect(summary).toBe(
      '<span class="warn">1 of 23 checks failing</span>: 16 rule checks, none failing; 1 of 7 history checks failing: warnings, a change across days can be real (see What changed), against 2026-11-20 (snapshot 2026-11-21)',
    );
    expect(summary).not.toContain('class="ok"');
    expect(tableRows(failing, 't-checks')).toEqual([
      ['campaign_engagement_anomaly', 'history', 'failed', '10', '1'],
    ]);
    // The rule checks' disagreements are not listed for a history check: "what changed" has them.
    expect(failing).not.toContain('<h3>Disagreements');
  });
});

describe('chart axes', () => {
  it('a day axis labels the last snapshot whatever the window, and spans exactly the data', () => {
    const days = Array.from({ length: 14 }, (_, i) => `2026-11-${String(14 + i).padStart(2, '0')}`);
    for (const maxTicks of [3, 4, 5, 14]) {
      const axis = dayAxis([...days, ...days], maxTicks, null);
      const ticks = axis.axis.values.map((t) => new Date(t).toISOString().slice(0, 10));
      expect(ticks.at(-1), `${maxTicks} ticks`).toBe('2026-11-27');
      expect(ticks.length).toBeLessThanOrEqual(maxTicks);
      expect(axis.scale.domain).toEqual([Date.parse('2026-11-14'), Date.parse('2026-11-27')]);
    }
    expect(dayAxis(['2026-11-27'], 4, null).axis.values).toEqual([Date.parse('2026-11-27')]);
  });

  it('a symmetric log axis reaches past the largest move on each side that has one', () => {
    expect(symlogTicks([2_588_261, 3_322, 8])).toEqual({
      ticks: [0, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000],
      domain: [0, 10_000_000],
    });
    expect(symlogTicks([-250, 3, 0.7], 2)).toEqual({ ticks: [-1_000, -10, 0, 10], domain: [-1_000, 10] });
    expect(symlogTicks([0])).toEqual({ ticks: [0], domain: [0, 1] });
  });

  it('a Vega error while drawing fails the chart instead of leaving it half drawn', async () => {
    await expect(
      renderChart({
        description: 'broken',
        data: { values: [{ a: 1 }] },
        mark: 'bar',
        encoding: { x: { field: 'a', type: 'quantitative', axis: { format: 'not a format(' } } },
      }),
    ).rejects.toThrow(/chart "broken": .*invalid format/);
  });
});
