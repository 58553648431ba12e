import { describeHistory, describeOutcome } from './check-before-publish.js';
import type { SyncSummary } from './run-sync.js';

/**
 * The end-of-run summary: rows per table, requests, retries, 429s and their waits (overload
 * apart from rate limit), duration.
 */
export function formatSummary(s: SyncSummary): string {
  const lines = [
    `sync ${s.snapshotDate} succeeded in ${(s.durationMs / 1000).toFixed(1)} s (run ${s.runId}${s.resumed ? `, resumed: ${s.unitsSkipped} of ${s.units} units already done` : ''})`,
    `requests ${s.requests}, retries ${s.retries}, 429s ${s.throttled} (waited ${seconds(s.throttleWaitMs)})`,
    `  overload: ${s.overloaded} 429s, waited ${seconds(s.overloadWaitMs)}; rate limit: ${s.rateLimited} 429s, waited ${seconds(s.rateLimitWaitMs)}`,
    `rows written ${s.rowsWritten}:`,
  ];
  const width = Math.max(...Object.keys(s.rowsByTable).map((t) => t.length), 5);
  for (const [table, rows] of Object.entries(s.rowsByTable).sort())
    lines.push(`  ${table.padEnd(width)}  ${rows}`);
  const { checks } = s;
  lines.push(
    checks.error
      ? `${checks.error} (published unchecked)`
      : `data checks: ${describeOutcome(checks.ran, checks.failed, ' (published with warnings)')}`,
  );
  if (checks.history.error) lines.push(`${checks.history.error} (published without them)`);
  else if (checks.history.results.length)
    lines.push(`history checks: ${describeHistory(s.snapshotDate, checks.history.results)}`);
  if (checks.drift.length)
    lines.push(
      `schema drift: ${[...new Set(checks.drift.map((d) => `${d.level} ${d.kind} ${d.name}`))].join(', ')}`,
    );
  for (const warning of s.warnings) lines.push(`warning: ${warning}`);
  return `${lines.join('\n')}\n`;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
