/**
 * The two sizes every chart is drawn at, and the axes the charts share. The page has no
 * script, so a chart cannot measure its container: each is drawn wide (a desktop window,
 * and print) and narrow (a phone), and the stylesheet shows the one that fits.
 */
import type { Row } from './load-report-data.js';

export type ChartLayout = 'wide' | 'narrow';

/**
 * Room for a chart inside its card, in pixels (report-style.ts): the page's 1,000 px less its
 * padding and the card's, and a 390 px phone less the narrower padding it gets (344 px), with
 * a margin. A chart drawn wider is scaled down to fit.
 */
export const CHART_ROOM: Readonly<Record<ChartLayout, number>> = { wide: 910, narrow: 330 };

/** A quantity's axis: thousands separated, trailing zeros trimmed (",~r"). */
export const AMOUNT_FORMAT = ',~r';
/**
 * A small chart's quantity labels: 2.5M, 40k, 0 (the table beneath gives the exact figure).
 * As a label expression: an axis `format` of "~s" would share one prefix across ticks ("0M").
 */
export const SHORT_AXIS = {
  labelExpr: "format(datum.value, '~s')",
  // What the axis's aria-label says of its range (its default reads "0.000000" when all zero).
  format: AMOUNT_FORMAT,
} as const;

const DAY_MS = 86_400_000;

/**
 * An x axis of snapshot dates whose last date is always labelled: the ticks are the data's
 * own dates, counted back from the last one in steps that leave at most `maxTicks` labels
 * (Vega's own ticks fall on "nice" dates and may stop short of the last snapshot). The
 * scale spans exactly the first to the last date.
 */
export function dayAxis(dates: readonly string[], maxTicks: number, title: string | null) {
  const days = [...new Set(dates)].sort();
  const step = Math.max(1, Math.ceil(days.length / Math.max(1, maxTicks)));
  const ticks: number[] = [];
  for (let i = days.length - 1; i >= 0; i -= step) ticks.unshift(Date.parse(`${days[i]}T00:00:00Z`));
  const first = Date.parse(`${days[0]}T00:00:00Z`);
  const last = Date.parse(`${days.at(-1)}T00:00:00Z`);
  // A single day gets a day either side, so its point sits in the middle, not on an edge.
  const domain = first === last ? [first - DAY_MS, last + DAY_MS] : [first, last];
  return {
    field: 'snapshot_date',
    type: 'temporal',
    timeUnit: 'utcyearmonthdate',
    title,
    scale: { type: 'utc', domain, nice: false, padding: 8 },
    axis: { values: ticks, labelAngle: 0, labelOverlap: false, format: '%b %d' },
  } as const;
}

/**
 * Tick values of a symmetric log scale reaching `values`: 0 and the powers of ten from 10 up to
 * the largest move, each side that has one (every `every`-th power, so a narrow chart's labels do
 * not collide). The domain ends on the outermost tick so the largest bar ends inside it.
 */
export function symlogTicks(values: readonly number[], every = 1): { ticks: number[]; domain: number[] } {
  const finite = values.filter(Number.isFinite);
  const side = (magnitude: number): number[] => {
    if (!(magnitude > 0)) return [];
    const top = Math.max(0, Math.ceil(Math.log10(magnitude)));
    const powers: number[] = [];
    // Down to 10 (1 only for moves under 10): below it the scale is nearly linear anyway.
    for (let p = top; p >= Math.min(1, top); p -= every) powers.unshift(10 ** p);
    return powers;
  };
  const up = side(Math.max(0, ...finite));
  const down = side(Math.max(0, ...finite.map((v) => -v))).map((v) => -v);
  const ticks = [...down.reverse(), 0, ...up];
  return { ticks, domain: [Math.min(0, ...ticks), Math.max(0, ...ticks, 1)] };
}

/** The dates of rows (as the charts take them), for dayAxis. */
export function datesOf(rows: readonly Row[], field: string): string[] {
  return rows.map((r) => String(r[field]));
}
