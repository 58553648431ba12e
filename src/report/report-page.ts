/**
 * The report as one self-contained HTML page: inline CSS, charts as inline SVG drawn when
 * the page is written, every figure also in a table. No script and nothing fetched, so it
 * opens offline, by double-click, and prints.
 */
import type { TopLevelSpec } from 'vega-lite';
import type { ChartLayout } from './chart-layout.js';
import {
  changesSpec,
  documentsSpec,
  historySpec,
  influencerSpec,
  networkSpec,
  salesSpec,
} from './chart-specs.js';
import { freshnessSection } from './freshness-section.js';
import { type Column, escapeHtml, htmlTable } from './html-table.js';
import type { ReportData, Row } from './load-report-data.js';
import { renderChart } from './render-chart.js';
import { TOP_CAMPAIGNS, TOP_CHANGES, TOP_INFLUENCERS } from './report-options.js';
import { REPORT_CSS } from './report-style.js';

interface ChartSection {
  readonly id: string;
  readonly title: string;
  /** What the chart shows and how to read it (HTML, escaped by the caller). */
  readonly intro: string;
  readonly rows: readonly Row[];
  /** Said instead of a chart when there are no rows. */
  readonly empty: string;
  /** The chart, drawn for each layout (chart-layout.ts). */
  readonly spec: (layout: ChartLayout) => TopLevelSpec;
  readonly table: {
    readonly caption: string;
    readonly columns: readonly Column[];
    readonly rows?: readonly Row[];
  };
  readonly extra?: string;
}

/** The figures that add up across campaigns, labelled alike in every table showing them. */
const ENGAGEMENT_EMV: readonly Column[] = [
  { key: 'engagement', label: 'engagement', kind: 'count' },
  { key: 'emv', label: 'EMV', kind: 'amount' },
];
const HISTORY_FAILURE_COLUMNS: readonly Column[] = [
  { key: 'check_name', label: 'check', kind: 'text' },
  { key: 'campaign_id', label: 'campaign', kind: 'text' },
  { key: 'entity_id', label: 'entity (post or network)', kind: 'text' },
  { key: 'before', label: 'before', kind: 'number' },
  { key: 'after', label: 'after', kind: 'number' },
];
const SUMMED: readonly Column[] = [
  { key: 'campaigns', label: 'campaigns', kind: 'count' },
  { key: 'posts', label: 'posts', kind: 'count' },
  ...ENGAGEMENT_EMV,
];

export async function renderReportPage(data: ReportData): Promise<string> {
  const sections = await Promise.all(chartSections(data).map(renderSection));
  const scope = data.campaigns.length ? data.campaigns.map(escapeHtml).join(', ') : 'all';
  const window = data.window ? `${data.window.from} to ${data.window.to}` : 'no snapshot yet';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Campaign report · ${escapeHtml(data.segment)} · ${escapeHtml(data.window?.to ?? 'no data')}</title>
<style>${REPORT_CSS}</style>
</head>
<body>
<header>
<h1>Campaign report</h1>
<p class="meta">Segment <b>${escapeHtml(data.segment)}</b> · campaigns: ${scope} · snapshots ${escapeHtml(window)} (last ${data.days} days) · generated ${escapeHtml(data.generatedAt.slice(0, 19).replace('T', ' '))} UTC</p>
</header>
<main>
${freshnessSection(data)}
${sections.join('\n')}
</main>
<footer>Written by <code>campaign-warehouse report</code> from the published warehouse. Reach is shown at the level the API reports it and never added up.</footer>
</body>
</html>
`;
}

/**
 * "What changed": the campaigns that moved most since the previous snapshot, and what the
 * failing history checks found (the figure before and after), up front after freshness.
 */
function whatChanged(data: ReportData): ChartSection {
  const previous = data.changes[0]?.previous_snapshot;
  const latest = data.window?.to;
  const gap =
    previous && latest ? Math.round((Date.parse(latest) - Date.parse(String(previous))) / 86_400_000) : 0;
  const since = previous
    ? `${escapeHtml(previous)}${gap > 1 ? ` <span class="warn">(${gap} days before: nights were missed; compared anyway)</span>` : ''}`
    : 'the previous snapshot';
  const failures = data.checks.recorded ? data.checks.historyFailures : [];
  const checks =
    failures.length === 0
      ? `<p class="${data.checks.recorded ? 'ok' : 'empty'}" id="history-checks-summary">${
          data.checks.recorded
            ? 'No history check failed on the latest snapshot.'
            : 'No history checks recorded.'
        }</p>`
      : [
          `<h3 id="history-checks-summary"><span class="warn">Failing history checks</span> (warnings: a change across days can be real)</h3>`,
          htmlTable(
            't-history-failures',
            `What the failing history checks found on ${latest}: the figure on ${failures[0]!.compared_with} (before) and on ${latest} (after)`,
            HISTORY_FAILURE_COLUMNS,
            failures,
          ),
        ].join('\n');
  return {
    id: 'what-changed',
    title: 'What changed',
    intro: `The campaigns that moved most in engagement since ${since} (the top ${TOP_CHANGES}, up or down), with their EMV. The moves span orders of magnitude, so the bars are on a symmetric log scale (each gridline ten times the one before) and carry their figures. Then the history checks that failed: figures that fell, posts or networks that vanished, a change outside the campaign's usual band.`,
    rows: data.changes,
    empty: 'Only one snapshot in this segment: nothing to compare yet.',
    spec: (layout) => changesSpec(data.changes, layout),
    table: {
      caption: `Engagement and EMV per campaign, on the previous snapshot and on ${latest}`,
      columns: [
        { key: 'campaign', label: 'campaign', kind: 'text' },
        { key: 'engagement_before', label: 'engagement before', kind: 'count' },
        { key: 'engagement', label: 'engagement', kind: 'count' },
        { key: 'engagement_change', label: 'change', kind: 'count' },
        { key: 'emv_before', label: 'EMV before', kind: 'amount' },
        { key: 'emv', label: 'EMV', kind: 'amount' },
        { key: 'emv_change', label: 'change', kind: 'amount' },
      ],
    },
    extra: checks,
  };
}

async function renderSection(section: ChartSection): Promise<string> {
  const head = `<section id="${section.id}" aria-labelledby="${section.id}-h"><h2 id="${section.id}-h">${escapeHtml(section.title)}</h2>\n<p class="note">${section.intro}</p>`;
  if (section.rows.length === 0)
    return `${head}\n<p class="empty" role="note">${escapeHtml(section.empty)}</p>\n</section>`;
  // Both drawn; the stylesheet shows the one that fits the window (the page has no script).
  const [wide, narrow] = await Promise.all([
    renderChart(section.spec('wide')),
    renderChart(section.spec('narrow')),
  ]);
  const { caption, columns, rows = section.rows } = section.table;
  return [
    head,
    `<figure class="chart" aria-describedby="t-${section.id}-caption"><div class="chart-wide">${wide}</div><div class="chart-narrow">${narrow}</div><figcaption>${escapeHtml(caption)}: the figures are in the table below.</figcaption></figure>`,
    htmlTable(`t-${section.id}`, caption, columns, rows),
    section.extra ?? '',
    '</section>',
  ].join('\n');
}

/** The report's chart sections, in page order. */
function chartSections(data: ReportData): ChartSection[] {
  const latest = data.window?.to ?? 'the latest snapshot';
  const label = new Map(data.followed.map((f) => [f.campaign_id, f.campaign]));
  const named: CampaignNamer = (rows) =>
    rows.map((r) => ({ ...r, campaign: label.get(r.campaign_id) ?? null }));
  return [
    whatChanged(data),
    topCampaigns(data, latest, named(data.history)),
    networks(data, latest, named),
    topInfluencers(data, latest),
    salesAgainstBudget(data, latest),
    streamedDocuments(data),
  ];
}

/** Rows with the name of their campaign beside its id (null for a campaign not followed). */
type CampaignNamer = (rows: readonly Row[]) => Row[];

/** "Top campaigns over time": engagement and EMV per snapshot of the followed campaigns. */
function topCampaigns(data: ReportData, latest: string, history: readonly Row[]): ChartSection {
  return {
    id: 'campaigns',
    title: 'Top campaigns over time',
    intro: `${
      data.campaigns.length
        ? 'Engagement and EMV of the campaigns asked for, on each snapshot of the window'
        : `Engagement and EMV, on each snapshot of the window, of the campaigns with the most engagement on ${escapeHtml(latest)} (the top ${TOP_CAMPAIGNS})`
    }: one small chart per campaign and figure, each on its own scale (its axis does not start at zero), so a jump in one campaign does not flatten the others.`,
    rows: data.history,
    empty: 'No campaign snapshot in this window: nothing to draw.',
    spec: (layout) => historySpec(history, data.followed, layout),
    table: {
      caption: 'Engagement and EMV per snapshot and campaign',
      columns: [
        { key: 'snapshot_date', label: 'snapshot', kind: 'date' },
        { key: 'campaign', label: 'campaign', kind: 'text' },
        ...ENGAGEMENT_EMV,
      ],
      rows: history,
    },
  };
}

/** "Networks": the summed figures per network, then reach per campaign and network (never summed). */
function networks(data: ReportData, latest: string, named: CampaignNamer): ChartSection {
  return {
    id: 'networks',
    title: 'Networks',
    intro: `Posts, engagement and EMV per network on ${escapeHtml(latest)}, over the campaigns of the report. These add up across campaigns; reach does not, so it is shown per campaign and network below, never summed.`,
    rows: data.networkTotals,
    empty: 'No network figures on the latest snapshot.',
    spec: (layout) => networkSpec(data.networkTotals, layout),
    table: {
      caption: 'Posts, engagement and EMV per network',
      columns: [{ key: 'network', label: 'network', kind: 'text' }, ...SUMMED],
    },
    extra:
      data.networkReach.length === 0
        ? ''
        : htmlTable(
            't-network-reach',
            "Reach per network of the followed campaigns, beside each campaign's own total reach (not a sum)",
            [
              { key: 'campaign', label: 'campaign', kind: 'text' },
              { key: 'network', label: 'network', kind: 'text' },
              { key: 'reach', label: 'reach on this network', kind: 'count' },
              { key: 'campaign_total_reach', label: 'campaign total reach', kind: 'count' },
            ],
            named(data.networkReach),
          ),
  };
}

/** "Top influencers": the influencers with the most engagement on the latest snapshot. */
function topInfluencers(data: ReportData, latest: string): ChartSection {
  return {
    id: 'influencers',
    title: 'Top influencers',
    intro: `The influencers with the most engagement on ${escapeHtml(latest)} (the top ${TOP_INFLUENCERS}), over their campaigns in this report.`,
    rows: data.influencers,
    empty: 'No influencer figures on the latest snapshot.',
    spec: (layout) => influencerSpec(data.influencers, layout),
    table: {
      caption: 'Top influencers by engagement',
      columns: [
        { key: 'influencer', label: 'influencer', kind: 'text' },
        { key: 'influencer_id', label: 'id', kind: 'text' },
        ...SUMMED,
        { key: 'followers', label: 'followers', kind: 'count' },
      ],
    },
  };
}

/** "Sales against budget": attributed sales per currency (currencies never added). */
function salesAgainstBudget(data: ReportData, latest: string): ChartSection {
  return {
    id: 'sales',
    title: 'Sales against budget',
    intro: `Sales attributed to influencers on ${escapeHtml(latest)}, per currency, against the budget of the influencers they are attributed to. The API does not state the budget's currency: read each panel within its currency; currencies are never added.`,
    rows: data.sales,
    empty: 'No sales attributed on the latest snapshot.',
    spec: (layout) => salesSpec(data.sales, layout),
    table: {
      caption: 'Sales and budget per currency',
      columns: [
        { key: 'currency', label: 'currency', kind: 'text' },
        { key: 'sales', label: 'sales', kind: 'amount' },
        { key: 'budget', label: 'budget of the selling influencers', kind: 'amount' },
        { key: 'influencers', label: 'influencer-campaigns with sales', kind: 'count' },
      ],
    },
  };
}

/** "Streamed documents": the pushed documents per day of publication and search type. */
function streamedDocuments(data: ReportData): ChartSection {
  return {
    id: 'documents',
    title: 'Streamed documents by day of publication',
    intro: `Documents pushed to the hooks, per search type and per day they were published (the document's own <code>published_date</code>, UTC; the day the sink received it when it has none), not the day they were pushed: Freshness says when the last delivery arrived${data.documentsWindow ? `. Shown: those published ${escapeHtml(data.documentsWindow.from)} to ${escapeHtml(data.documentsWindow.to)}` : ''}. They belong to searches, not campaigns: the campaign and segment options do not apply.`,
    rows: data.documents,
    empty: 'No streamed documents in the warehouse.',
    spec: (layout) => documentsSpec(data.documents, layout),
    table: {
      caption: 'Documents per day of publication and search type',
      columns: [
        { key: 'day', label: 'day published', kind: 'date' },
        { key: 'search_type', label: 'search type', kind: 'text' },
        { key: 'documents', label: 'documents', kind: 'count' },
      ],
    },
  };
}
