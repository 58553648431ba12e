/** The report's first section: how fresh its figures are and which of them to doubt. */
import { type Column, escapeHtml, formatValue, htmlTable } from './html-table.js';
import type { ChecksData, ReportData, Row } from './load-report-data.js';

/** A nightly sync older than this has missed a night: say so. */
const STALE_SYNC_HOURS = 36;

const CHECK_COLUMNS: readonly Column[] = [
  { key: 'check_name', label: 'check', kind: 'text' },
  { key: 'kind', label: 'kind', kind: 'text' },
  { key: 'status', label: 'status', kind: 'text' },
  { key: 'checked', label: 'checked', kind: 'count' },
  { key: 'failing', label: 'failing', kind: 'count' },
];

const FAILURE_COLUMNS: readonly Column[] = [
  { key: 'check_name', label: 'check', kind: 'text' },
  { key: 'campaign_id', label: 'campaign', kind: 'text' },
  { key: 'entity_id', label: 'entity (influencer, network or post)', kind: 'text' },
  { key: 'expected', label: 'expected', kind: 'number' },
  { key: 'actual', label: 'actual', kind: 'number' },
];

export function freshnessSection(data: ReportData): string {
  const f = data.freshness;
  const hours = typeof f.sync_hours_ago === 'number' ? f.sync_hours_ago : null;
  const sync =
    f.sync_finished_at === null || f.sync_finished_at === undefined
      ? '<span class="warn">none recorded</span>'
      : `${escapeHtml(formatValue(f.sync_finished_at, 'time'))}${hours === null ? '' : ` (${escapeHtml(ago(hours))})`}, snapshot ${escapeHtml(f.sync_snapshot_date)}, run <code>${escapeHtml(f.sync_run_id)}</code>${hours !== null && hours > STALE_SYNC_HOURS ? ' <span class="warn">— older than a nightly cycle: has the schedule stopped?</span>' : ''}`;
  const stream =
    f.last_delivery_received_at === null || f.last_delivery_received_at === undefined
      ? 'no streamed documents published yet'
      : `newest published delivery received ${escapeHtml(formatValue(f.last_delivery_received_at, 'time'))}; ${escapeHtml(formatValue(f.deliveries ?? null, 'count'))} deliveries, ${escapeHtml(formatValue(f.documents ?? null, 'count'))} documents kept`;
  const latest = data.window
    ? escapeHtml(data.window.to)
    : `<span class="warn">none in segment ${escapeHtml(data.segment)}</span>`;
  return [
    '<section id="freshness" aria-labelledby="freshness-h"><h2 id="freshness-h">Freshness</h2>',
    '<dl class="facts">',
    `<dt>Latest snapshot</dt><dd id="latest-snapshot">${latest}</dd>`,
    `<dt>Last successful sync</dt><dd id="last-sync">${sync}</dd>`,
    `<dt>Last sink publish</dt><dd id="last-publish">${stream}</dd>`,
    `<dt>Data checks</dt><dd id="checks-summary">${checksSummary(data.checks)}</dd>`,
    '</dl>',
    checksDetail(data.checks),
    '</section>',
  ].join('\n');
}

/**
 * One line on every check that ran on the snapshot, rule and history (as `status` counts
 * them): green only when none failed; a failing one, of either kind, turns it into a warning.
 */
function checksSummary(checks: ChecksData): string {
  if (!checks.recorded && checks.unreadable)
    return `<span class="warn">recorded, but unreadable</span> (${escapeHtml(checks.unreadable)})`;
  if (!checks.recorded || checks.snapshot === null) return 'no data checks recorded';
  const all = checks.checks;
  const failing = failingChecks(checks);
  // A skipped check (nothing to compare, e.g. a segment with no posts) did not pass: say so.
  const skipped = all.filter((c) => c.status === 'skipped' && !failing.includes(c)).length;
  const headline =
    failing.length > 0
      ? `<span class="warn">${failing.length} of ${all.length} checks failing</span>`
      : skipped
        ? `<span class="ok">${all.length - skipped} of ${all.length} checks passed</span>, ${skipped} skipped (nothing to compare)`
        : `<span class="ok">all ${all.length} checks passed</span>`;
  const rules = all.filter((c) => c.kind !== 'history');
  const history = all.filter((c) => c.kind === 'history');
  const compared = history.find((c) => c.compared_with)?.compared_with;
  const parts = [
    rules.length ? kindCount(rules, 'rule', ': doubt the figures they name below') : '',
    history.length
      ? `${kindCount(history, 'history', ': warnings, a change across days can be real (see What changed)')}${compared ? `, against ${escapeHtml(compared)}` : ''}`
      : '',
  ].filter(Boolean);
  return `${headline}: ${parts.join('; ')} (snapshot ${escapeHtml(checks.snapshot)})`;
}

/** "16 rule checks, none failing", or "2 of 16 rule checks failing" and what to make of it. */
function kindCount(checks: readonly Row[], kind: string, whenFailing: string): string {
  const failing = checks.filter((c) => Number(c.failing ?? 0) > 0).length;
  const noun = `${kind} check${checks.length === 1 ? '' : 's'}`;
  return failing
    ? `${failing} of ${checks.length} ${noun} failing${whenFailing}`
    : `${checks.length} ${noun}, none failing`;
}

function checksDetail(checks: ChecksData): string {
  if (!checks.recorded || checks.snapshot === null) return '';
  const failing = failingChecks(checks);
  if (failing.length === 0) return '';
  // The rule checks' disagreements are listed here; the history checks' are in "what changed".
  const rules = failing.some((c) => c.kind !== 'history');
  return [
    htmlTable('t-checks', 'Failing data checks', CHECK_COLUMNS, failing),
    rules ? disagreements(checks) : '',
  ]
    .filter(Boolean)
    .join('\n');
}

function disagreements(checks: Extract<ChecksData, { recorded: true }>): string {
  if (checks.failures.length === 0)
    return '<h3>Disagreements</h3>\n<p class="empty">No disagreement concerns the campaigns of this report.</p>';
  return [
    `<h3>Disagreements (the first ${checks.failures.length})</h3>`,
    htmlTable(
      't-check-failures',
      'Disagreements found by the failing rule checks',
      FAILURE_COLUMNS,
      checks.failures,
    ),
  ].join('\n');
}

/** A check is failing when it found disagreements (its `failing` count), whatever its status word. */
function failingChecks(checks: Extract<ChecksData, { recorded: true }>) {
  return checks.checks.filter((c) => Number(c.failing ?? 0) > 0);
}

function ago(hours: number): string {
  if (hours < 1) return `${Math.max(0, Math.round(hours * 60))} min ago`;
  if (hours < 48) return `${Math.round(hours)} h ago`;
  return `${Math.round(hours / 24)} days ago`;
}
