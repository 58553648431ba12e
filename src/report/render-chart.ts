/**
 * Charts drawn once, when the report is written: a Vega-Lite spec compiled to Vega and
 * rendered headless to an SVG string (no DOM, no canvas, no script in the page).
 */
import { parse, View } from 'vega';
import { compile, type TopLevelSpec } from 'vega-lite';

/** Shared look: system fonts only (nothing to fetch), sizes legible on screen and in print. */
export const CHART_CONFIG = {
  font: 'system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif',
  background: 'white',
  view: { stroke: null },
  axis: { labelFontSize: 12, titleFontSize: 12, titleFontWeight: 600, gridColor: '#e6e6e6' },
  legend: { labelFontSize: 12, titleFontSize: 12, labelLimit: 320 },
  header: { labelFontSize: 13, titleFontSize: 13 },
  title: { fontSize: 14, anchor: 'start' },
  range: {
    // Okabe-Ito: distinguishable with the common colour-vision deficiencies.
    category: ['#0072B2', '#E69F00', '#009E73', '#CC79A7', '#56B4E9', '#D55E00', '#F0E442', '#000000'],
  },
} as const;

export async function renderChart(spec: TopLevelSpec): Promise<string> {
  const vegaSpec = compile({ config: CHART_CONFIG, ...spec } as TopLevelSpec).spec;
  const view = new View(parse(vegaSpec), { renderer: 'none' });
  try {
    return await view.toSVG();
  } finally {
    view.finalize();
  }
}
