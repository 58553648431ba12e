/**
 * Charts drawn once, when the report is written: a Vega-Lite spec compiled to Vega and
 * rendered headless to an SVG string (no DOM, no canvas, no script in the page).
 */
import { logger, parse, View, Warn } from 'vega';
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
    // Tableau 10: ten distinct hues in an order where neighbours differ most (Okabe-Ito's
    // blue and sky blue looked alike side by side in a legend).
    category: { scheme: 'tableau10' },
  },
} as const;

/**
 * The chart as an SVG string. Vega logs what goes wrong while drawing (a bad format, an
 * expression that does not parse) and draws on, leaving an axis or a mark out: such an
 * error fails the chart here instead of leaving a quietly broken one in the report.
 */
export async function renderChart(spec: TopLevelSpec): Promise<string> {
  const vegaSpec = compile({ config: CHART_CONFIG, ...spec } as TopLevelSpec).spec;
  const errors: unknown[] = [];
  const log = logger(Warn, undefined, (_method, level, args) => {
    if (level === 'ERROR') errors.push(args[0]);
    else process.stderr.write(`vega: ${args.map(String).join(' ')}\n`);
  });
  const view = new View(parse(vegaSpec), { renderer: 'none', logger: log });
  const failed = (error: unknown) =>
    new Error(`chart "${spec.description ?? 'untitled'}": ${String(error)}`, { cause: error });
  try {
    const svg = await view.toSVG().catch((error: unknown) => {
      throw failed(errors[0] ?? error);
    });
    if (errors.length > 0) throw failed(errors[0]);
    return svg;
  } finally {
    view.finalize();
  }
}
