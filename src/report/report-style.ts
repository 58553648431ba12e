/** The report's only stylesheet, inlined: system fonts, nothing fetched, readable in print. */
export const REPORT_CSS = `
:root { color-scheme: light; --ink: #1d1d1f; --muted: #5a5a60; --line: #d9d9de; --warn: #a04000; --ok: #1e6b3a; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif; color: var(--ink); background: #f6f6f8; }
header, main, footer { max-width: 1000px; margin: 0 auto; padding: 0 20px; }
header { padding-top: 24px; }
h1 { font-size: 26px; margin: 0 0 4px; }
h2 { font-size: 19px; margin: 0 0 6px; }
h3 { font-size: 15px; margin: 16px 0 6px; }
.meta, .note { color: var(--muted); margin: 4px 0 12px; }
section { background: white; border: 1px solid var(--line); border-radius: 8px; padding: 18px 20px; margin: 16px 0; }
.facts { display: grid; grid-template-columns: max-content 1fr; gap: 6px 18px; margin: 8px 0; }
.facts dt { font-weight: 600; }
.facts dd { margin: 0; min-width: 0; overflow-wrap: anywhere; }
.warn { color: var(--warn); font-weight: 600; }
.ok { color: var(--ok); font-weight: 600; }
.empty { padding: 14px; border: 1px dashed var(--line); border-radius: 6px; color: var(--muted); background: #fafafa; }
figure { margin: 8px 0 12px; overflow-x: auto; }
figure svg { display: block; max-width: 100%; height: auto; }
/* Each chart is drawn twice, wide and narrow: a phone-sized window gets the narrow one. */
.chart-narrow { display: none; }
@media screen and (max-width: 720px) {
  header, main, footer { padding: 0 10px; }
  section { padding: 14px 12px; }
  .chart-wide { display: none; }
  .chart-narrow { display: block; }
  .facts { grid-template-columns: 1fr; gap: 0; }
  .facts dd { margin-bottom: 8px; }
  /* A wide table scrolls in its frame; its caption stays in view and wraps. */
  caption { position: sticky; left: 0; max-width: calc(100vw - 48px); }
}
figcaption { color: var(--muted); font-size: 13px; }
.table-wrap { max-height: 340px; overflow: auto; border: 1px solid var(--line); border-radius: 6px; }
.table-wrap + .table-wrap { margin-top: 14px; }
.table-wrap:focus { outline: 2px solid #0072B2; outline-offset: 2px; }
table { border-collapse: collapse; width: 100%; font-size: 13px; font-variant-numeric: tabular-nums; }
caption { text-align: left; padding: 6px 10px; font-weight: 600; background: #fafafa; }
th, td { padding: 4px 10px; border-top: 1px solid var(--line); text-align: left; white-space: nowrap; }
thead th { position: sticky; top: 0; background: #f0f0f3; border-top: 0; }
.num { text-align: right; }
code { font-size: 13px; }
footer { color: var(--muted); font-size: 13px; padding-bottom: 24px; }
@media print {
  body { background: white; }
  section { break-inside: avoid-page; border: 0; padding: 0; }
  .table-wrap { max-height: none; overflow: visible; border: 0; }
  thead th { position: static; }
}
`;
