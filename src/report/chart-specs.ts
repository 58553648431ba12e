/**
 * The report's charts as Vega-Lite specs (declarative: data in, marks out). Each takes the
 * rows its table shows, so the chart and the table beneath it always agree, and the layout
 * it is drawn for (chart-layout.ts): side by side when wide, stacked when narrow.
 */
import type { TopLevelSpec } from 'vega-lite';
import {
  AMOUNT_FORMAT,
  CHART_ROOM,
  type ChartLayout,
  dayAxis,
  SHORT_AXIS,
  symlogTicks,
} from './chart-layout.js';
import type { Row } from './load-report-data.js';

/** Rises and falls: blue and orange-red (Okabe-Ito), so a fall stands out for everyone. */
const RISE = '#0072B2';
const FALL = '#D55E00';

/** A bar chart's amounts: four ticks written in full when wide, three short ones when narrow. */
function amountAxis(field: string, title: string, wide: boolean): object {
  const axis = wide ? { tickCount: 4, format: AMOUNT_FORMAT } : { tickCount: 3, ...SHORT_AXIS };
  return { field, type: 'quantitative', title, axis };
}

/** Side by side when wide, one above the other when narrow. */
function arranged(layout: ChartLayout, charts: object[]): object {
  return layout === 'wide' ? { hconcat: charts } : { vconcat: charts, spacing: 18 };
}

/**
 * Engagement and EMV of the followed campaigns per snapshot, one small chart per campaign
 * and figure, each on its own scale: a campaign that jumps does not flatten the others.
 * Campaign order is the ranking's (`followed`); the panel's title names campaign and figure.
 */
export function historySpec(
  history: readonly Row[],
  followed: readonly Row[],
  layout: ChartLayout,
): TopLevelSpec {
  const measures = [
    ['engagement', 'engagement'],
    ['emv', 'EMV'],
  ] as const;
  const panel = (campaign: unknown, label: string) => `${campaign} · ${label}`;
  const values = history.flatMap((r) => {
    const campaign = r.campaign ?? r.campaign_id;
    return measures.map(([field, label]) => ({
      snapshot_date: r.snapshot_date,
      campaign,
      panel: panel(campaign, label),
      value: r[field],
    }));
  });
  const campaigns = followed.map((f) => f.campaign ?? f.campaign_id);
  const order = campaigns.flatMap((c) => measures.map(([, label]) => panel(c, label)));
  const columns = layout === 'wide' ? 2 : 1;
  const width = layout === 'wide' ? Math.floor(CHART_ROOM.wide / 2) - 80 : CHART_ROOM.narrow - 100;
  return {
    description:
      'Engagement and EMV of the top campaigns per snapshot date, one chart per campaign and figure, each on its own scale',
    data: { values },
    facet: {
      field: 'panel',
      type: 'nominal',
      sort: order,
      title: null,
      header: {
        labelAnchor: 'start',
        labelFontWeight: 600,
        labelLimit: 0,
        // Narrow: campaign and figure on two lines, so the title stays within the chart's width.
        ...(layout === 'narrow' ? { labelExpr: "split(datum.label, ' · ')" } : {}),
      },
    },
    columns,
    // Panels aligned on their plot areas whatever their axis labels' widths; the spacing
    // leaves room for the y labels of the panel to the right.
    bounds: 'flush',
    spacing: { row: layout === 'wide' ? 58 : 74, column: 90 },
    spec: {
      width,
      height: layout === 'wide' ? 70 : 60,
      mark: { type: 'line', point: { size: 18 }, strokeWidth: 2 },
      encoding: {
        x: dayAxis(
          history.map((r) => String(r.snapshot_date)),
          layout === 'wide' ? 5 : 4,
          null,
        ),
        y: {
          field: 'value',
          type: 'quantitative',
          title: null,
          scale: { zero: false },
          axis: { tickCount: 3, ...SHORT_AXIS },
        },
        color: { field: 'campaign', type: 'nominal', sort: campaigns, legend: null },
      },
    },
    resolve: { scale: { y: 'independent' }, axis: { x: 'independent' } },
  } as TopLevelSpec;
}

/**
 * The campaigns that moved most since the previous snapshot: their change in engagement and
 * in EMV (same campaign order, largest engagement move first), rises blue, falls orange-red.
 * The moves span orders of magnitude (one campaign's millions beside another's eight), so the
 * axis is a symmetric log scale, labelled as such, and each bar carries its exact figure.
 */
export function changesSpec(rows: readonly Row[], layout: ChartLayout): TopLevelSpec {
  const order = rows.map((r) => r.campaign);
  const wide = layout === 'wide';
  const labelWidth = wide ? 200 : 165;
  const width = wide
    ? Math.floor((CHART_ROOM.wide - labelWidth) / 2) - 40
    : CHART_ROOM.narrow - labelWidth - 10;
  // Side by side, campaign names label the first chart's rows only: the second shares its order.
  const bars = (field: string, title: string, format: string, labelled: boolean) => {
    const { ticks, domain } = symlogTicks(
      rows.map((r) => Number(r[field])),
      wide ? 1 : 2,
    );
    // A figure sits beyond its bar's end, or inside it when the bar leaves no room beyond.
    const figure = (sign: '>=' | '<', inside: boolean) => ({
      transform: [{ filter: `datum.${field} ${sign} 0 && ${inside ? '' : '!'}datum.${field}_inside` }],
      mark: {
        type: 'text',
        align: (sign === '>=') === inside ? 'right' : 'left',
        dx: (sign === '>=') === inside ? -4 : 4,
        fontSize: 11,
        color: inside ? 'white' : '#333',
      },
      encoding: { text: { field, type: 'quantitative', format } },
    });
    return {
      width,
      height: { step: 22 },
      encoding: {
        y: {
          field: 'campaign',
          type: 'nominal',
          sort: order,
          title: null,
          axis: labelled ? { labelLimit: labelWidth } : null,
        },
        x: {
          field,
          type: 'quantitative',
          title: wide ? `${title} (symmetric log scale)` : [title, '(symmetric log scale)'],
          scale: { type: 'symlog', domain, nice: false },
          axis: { values: ticks, ...SHORT_AXIS, labelOverlap: true },
        },
      },
      layer: [
        {
          mark: { type: 'bar' },
          encoding: { color: { condition: { test: `datum.${field} < 0`, value: FALL }, value: RISE } },
        },
        figure('>=', false),
        figure('>=', true),
        figure('<', false),
        figure('<', true),
      ],
    };
  };
  const values = rows.map((r) => ({
    ...r,
    engagement_change_inside: longBar(Number(r.engagement_change), changeDomain(rows, 'engagement_change')),
    emv_change_inside: longBar(Number(r.emv_change), changeDomain(rows, 'emv_change')),
  }));
  return {
    description:
      'Change in engagement and EMV since the previous snapshot, per campaign, on a symmetric log scale',
    data: { values },
    config: { axisY: { labelFontSize: wide ? 12 : 11 } },
    ...arranged(layout, [
      bars('engagement_change', 'engagement change', '+,d', true),
      bars('emv_change', 'EMV change', '+,.2f', !wide),
    ]),
  } as TopLevelSpec;
}

function changeDomain(rows: readonly Row[], field: string): number[] {
  return symlogTicks(rows.map((r) => Number(r[field]))).domain;
}

/**
 * Whether a bar on the symmetric log scale (Vega's: sign(x) * log1p(|x|)) covers more than
 * 60% of its side of the axis, leaving too little room for its figure beyond its end.
 */
function longBar(value: number, domain: readonly number[]): boolean {
  const symlog = (x: number) => Math.sign(x) * Math.log1p(Math.abs(x));
  const end = value < 0 ? domain[0]! : domain.at(-1)!;
  return end !== 0 && symlog(value) / symlog(end) > 0.6;
}

/** Posts, engagement and EMV per network: three bar charts, same network order. */
export function networkSpec(totals: readonly Row[], layout: ChartLayout): TopLevelSpec {
  const order = totals.map((r) => r.network);
  const wide = layout === 'wide';
  // Side by side, network names label the first chart's rows only: the others share its order.
  const bars = (field: string, title: string, labelled: boolean) => ({
    width: wide ? 220 : CHART_ROOM.narrow - 175,
    height: { step: 26 },
    mark: { type: 'bar', color: RISE },
    encoding: {
      y: { field: 'network', type: 'nominal', sort: order, title: null, axis: labelled ? {} : null },
      x: amountAxis(field, title, wide),
    },
  });
  return {
    description: 'Posts, engagement and EMV per network at the latest snapshot',
    data: { values: totals },
    ...arranged(layout, [
      bars('posts', 'posts', true),
      bars('engagement', 'engagement', !wide),
      bars('emv', 'EMV', !wide),
    ]),
  } as TopLevelSpec;
}

/** The top influencers: engagement and EMV, ranked by engagement. */
export function influencerSpec(rows: readonly Row[], layout: ChartLayout): TopLevelSpec {
  const values = withUniqueLabels(rows);
  const wide = layout === 'wide';
  // Narrow: room for a shared name's id too, "Kai Dubois (700079)".
  const labelWidth = wide ? 200 : 190;
  const bars = (field: string, title: string, color: string, labelled: boolean) => ({
    width: wide ? 300 : CHART_ROOM.narrow - labelWidth - 20,
    height: { step: 22 },
    mark: { type: 'bar', color },
    encoding: {
      y: {
        field: 'label',
        type: 'nominal',
        sort: values.map((v) => v.label),
        title: null,
        axis: labelled ? { labelLimit: labelWidth } : null,
      },
      x: amountAxis(field, title, wide),
    },
  });
  return {
    description: 'Engagement and EMV of the top influencers at the latest snapshot',
    data: { values },
    ...arranged(layout, [bars('engagement', 'engagement', RISE, true), bars('emv', 'EMV', '#E69F00', !wide)]),
  } as TopLevelSpec;
}

/** Sales against budget, one small chart per currency (each on its own scale). */
export function salesSpec(rows: readonly Row[], layout: ChartLayout): TopLevelSpec {
  const values = rows.flatMap((r) => [
    { currency: r.currency, measure: 'sales', amount: r.sales },
    { currency: r.currency, measure: 'budget', amount: r.budget },
  ]);
  const wide = layout === 'wide';
  return {
    description: 'Attributed sales against budget per currency at the latest snapshot',
    data: { values },
    facet: { field: 'currency', type: 'nominal', title: null, sort: rows.map((r) => r.currency) },
    columns: wide ? 5 : 2,
    spec: {
      width: wide ? 100 : 80,
      height: wide ? 170 : 120,
      mark: { type: 'bar' },
      encoding: {
        x: {
          field: 'measure',
          type: 'nominal',
          sort: ['sales', 'budget'],
          title: null,
          axis: { labelAngle: 0 },
        },
        y: {
          field: 'amount',
          type: 'quantitative',
          title: wide ? 'amount' : null,
          axis: wide ? { tickCount: 4, format: AMOUNT_FORMAT } : { tickCount: 4, ...SHORT_AXIS },
        },
        color: {
          field: 'measure',
          type: 'nominal',
          scale: { domain: ['sales', 'budget'], range: ['#009E73', '#999999'] },
          legend: null,
        },
      },
    },
    resolve: { scale: { y: 'independent' } },
  } as TopLevelSpec;
}

/**
 * Streamed documents per day of publication (the document's own published_date; the day it
 * was received when it has none), stacked by search type.
 */
export function documentsSpec(rows: readonly Row[], layout: ChartLayout): TopLevelSpec {
  const wide = layout === 'wide';
  return {
    description: 'Streamed documents per day of publication and search type',
    data: { values: rows },
    width: wide ? CHART_ROOM.wide - 80 : CHART_ROOM.narrow - 60,
    height: wide ? 200 : 160,
    mark: { type: 'bar' },
    encoding: {
      // One band per day, a day with no documents left out: bars stay bars with a single day.
      x: {
        field: 'day',
        type: 'ordinal',
        timeUnit: 'utcyearmonthdate',
        title: 'day published (UTC)',
        axis: { labelAngle: 0, labelOverlap: true, format: '%b %d' },
      },
      y: {
        field: 'documents',
        type: 'quantitative',
        aggregate: 'sum',
        title: 'documents',
        axis: { format: AMOUNT_FORMAT, tickCount: 4 },
      },
      color: { field: 'search_type', type: 'nominal', title: 'search type', legend: { orient: 'bottom' } },
    },
  } as TopLevelSpec;
}

/** Influencer names as chart labels, with the id added where two share a name. */
function withUniqueLabels(rows: readonly Row[]): (Row & { label: string })[] {
  const counts = new Map<string, number>();
  for (const r of rows) counts.set(String(r.influencer), (counts.get(String(r.influencer)) ?? 0) + 1);
  return rows.map((r) => ({
    ...r,
    label:
      counts.get(String(r.influencer))! > 1 ? `${r.influencer} (${r.influencer_id})` : String(r.influencer),
  }));
}
