/**
 * The report's charts as Vega-Lite specs (declarative: data in, marks out). Each takes the
 * rows its table shows, so the chart and the table beneath it always agree.
 */
import type { TopLevelSpec } from 'vega-lite';
import type { Row } from './load-report-data.js';

/** Plot width of a full-width chart, in pixels (the page is ~960 px wide). */
const WIDE = 760;

/**
 * A quantity's axis: thousands separated, trailing zeros trimmed (",~r"). Vega's default
 * format takes its precision from the tick step, which for an all-zero chart is 0: "0.000000".
 */
const AMOUNT_AXIS = { tickCount: 4, format: ',~r' } as const;

const DAY_AXIS = {
  field: 'snapshot_date',
  type: 'temporal',
  timeUnit: 'utcyearmonthdate',
  title: 'snapshot date',
  axis: { labelAngle: 0, labelOverlap: true, format: '%b %d' },
} as const;

/**
 * Engagement and EMV of the followed campaigns per snapshot: two line charts, one legend.
 * `history` rows carry the campaign's label (`campaign`, as its table shows it).
 */
export function historySpec(history: readonly Row[], followed: readonly Row[]): TopLevelSpec {
  const values = history.map((r) => ({ ...r, campaign: r.campaign ?? r.campaign_id }));
  const line = (field: string, title: string) => ({
    width: WIDE,
    height: 190,
    mark: { type: 'line', point: true, strokeWidth: 2 },
    encoding: {
      x: DAY_AXIS,
      y: { field, type: 'quantitative', title, axis: { format: AMOUNT_AXIS.format } },
      color: {
        field: 'campaign',
        type: 'nominal',
        title: 'campaign',
        sort: followed.map((f) => f.campaign),
        legend: { orient: 'bottom', columns: 2 },
      },
    },
  });
  return {
    description: 'Engagement and EMV of the top campaigns per snapshot date',
    data: { values },
    vconcat: [line('engagement', 'engagement'), line('emv', 'EMV')],
  } as TopLevelSpec;
}

/**
 * The campaigns that moved most since the previous snapshot: their change in engagement and
 * in EMV side by side (same campaign order, largest engagement move first), rises blue,
 * falls orange, so a fall stands out.
 */
export function changesSpec(rows: readonly Row[]): TopLevelSpec {
  const order = rows.map((r) => r.campaign);
  const bars = (field: string, title: string, labelled = false) => ({
    width: 280,
    height: { step: 22 },
    mark: { type: 'bar' },
    encoding: {
      y: {
        field: 'campaign',
        type: 'nominal',
        sort: order,
        title: null,
        axis: labelled ? { labelLimit: 220 } : null,
      },
      x: { field, type: 'quantitative', title, axis: { tickCount: 4 } },
      color: {
        condition: { test: `datum.${field} < 0`, value: '#D55E00' },
        value: '#0072B2',
      },
    },
  });
  return {
    description: 'Change in engagement and EMV since the previous snapshot, per campaign',
    data: { values: rows },
    hconcat: [bars('engagement_change', 'engagement change', true), bars('emv_change', 'EMV change')],
  } as TopLevelSpec;
}

/** Posts, engagement and EMV per network: three bar charts side by side, same network order. */
export function networkSpec(totals: readonly Row[]): TopLevelSpec {
  const order = totals.map((r) => r.network);
  // Network names label the first chart's rows only: the others share its row order.
  const bars = (field: string, title: string, labelled = false) => ({
    width: 210,
    height: { step: 26 },
    mark: { type: 'bar', color: '#0072B2' },
    encoding: {
      y: { field: 'network', type: 'nominal', sort: order, title: null, axis: labelled ? {} : null },
      x: { field, type: 'quantitative', title, axis: AMOUNT_AXIS },
    },
  });
  return {
    description: 'Posts, engagement and EMV per network at the latest snapshot',
    data: { values: totals },
    hconcat: [bars('posts', 'posts', true), bars('engagement', 'engagement'), bars('emv', 'EMV')],
  } as TopLevelSpec;
}

/** The top influencers: engagement and EMV side by side, ranked by engagement. */
export function influencerSpec(rows: readonly Row[]): TopLevelSpec {
  const values = withUniqueLabels(rows);
  // Names label the first chart's rows only: the second shares its row order.
  const bars = (field: string, title: string, color: string, labelled = false) => ({
    width: 290,
    height: { step: 22 },
    mark: { type: 'bar', color },
    encoding: {
      y: {
        field: 'label',
        type: 'nominal',
        sort: values.map((v) => v.label),
        title: null,
        axis: labelled ? { labelLimit: 240 } : null,
      },
      x: { field, type: 'quantitative', title, axis: AMOUNT_AXIS },
    },
  });
  return {
    description: 'Engagement and EMV of the top influencers at the latest snapshot',
    data: { values },
    hconcat: [bars('engagement', 'engagement', '#0072B2', true), bars('emv', 'EMV', '#E69F00')],
  } as TopLevelSpec;
}

/** Sales against budget, one small chart per currency (each on its own scale). */
export function salesSpec(rows: readonly Row[]): TopLevelSpec {
  const values = rows.flatMap((r) => [
    { currency: r.currency, measure: 'sales', amount: r.sales },
    { currency: r.currency, measure: 'budget', amount: r.budget },
  ]);
  return {
    description: 'Attributed sales against budget per currency at the latest snapshot',
    data: { values },
    facet: { field: 'currency', type: 'nominal', title: null, sort: rows.map((r) => r.currency) },
    columns: 5,
    spec: {
      width: 100,
      height: 170,
      mark: { type: 'bar' },
      encoding: {
        x: {
          field: 'measure',
          type: 'nominal',
          sort: ['sales', 'budget'],
          title: null,
          axis: { labelAngle: 0 },
        },
        y: { field: 'amount', type: 'quantitative', title: 'amount', axis: AMOUNT_AXIS },
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

/** Streamed documents per day, stacked by search type. */
export function documentsSpec(rows: readonly Row[]): TopLevelSpec {
  return {
    description: 'Streamed documents per day per search type',
    data: { values: rows },
    width: WIDE,
    height: 200,
    mark: { type: 'bar' },
    encoding: {
      // One band per day, a day with no documents left out: bars stay bars with a single day.
      x: { ...DAY_AXIS, type: 'ordinal', field: 'day', title: 'day (published, UTC)' },
      y: {
        field: 'documents',
        type: 'quantitative',
        aggregate: 'sum',
        title: 'documents',
        axis: { format: AMOUNT_AXIS.format },
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
