/**
 * The data checks between a sync's staging and its publish: runs them on the staged
 * figures, says what failed (JSON log, the state database for `status` and /metrics, the
 * run summary), and in strict mode stops the run before its publish.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import type { Segment } from '../../pipelines/campaign-pipeline.js';
import { type DataCheckRecord, saveDataCheckRecord } from '../state/data-check-record.js';
import type { StateDb } from '../state/state-db.js';
import { firstLine } from '../util/first-line.js';
import type { Logger } from '../util/logger.js';
import type {
  DataCheckOutcome,
  DataCheckResult,
  DriftObservation,
  HistorySettings,
} from '../warehouse/index.js';
import { runDataChecks } from '../warehouse/index.js';
import type { RunRegistry } from './run-registry.js';

/**
 * Failing campaigns named per check in the log, the summary, `status` and /metrics: enough
 * to start looking; every one of them is in the data_check_failures view.
 */
export const LISTED_CAMPAIGNS = 20;

/** 'warn': a failing check is reported and the run publishes; 'strict': the run fails first. */
export type CheckMode = 'warn' | 'strict';

/** What the run summary says of the checks. */
export interface DataCheckSummary {
  readonly mode: CheckMode;
  /** Rule checks run (sql/checks/), each once per segment. */
  readonly ran: number;
  /** Failing rule checks: what `--strict` stops a run for. */
  readonly failed: readonly DataCheckResult[];
  /** The history checks (sql/checks/history/), which only warn. */
  readonly history: HistoryCheckSummary;
  readonly drift: readonly DriftObservation[];
  readonly durationMs: number;
  /** Set when the checks could not run (the run published unchecked). */
  readonly error?: string;
}

/** What the run summary, `status` and the log say of the history checks. */
export interface HistoryCheckSummary {
  /** Each history check once per segment (skipped ones included), as describeHistory reads them. */
  readonly results: readonly DataCheckResult[];
  /** The lake files the history checks read. */
  readonly files: number;
  readonly durationMs: number;
  /** Set when the history checks could not run (the rule checks' results stand). */
  readonly error?: string;
}

const NO_HISTORY: HistoryCheckSummary = { results: [], files: 0, durationMs: 0 };

/** A strict run stopped by failing checks: the published warehouse is untouched. */
export class DataChecksFailedError extends Error {
  readonly exitCode = 1;
  constructor(readonly failed: readonly DataCheckResult[]) {
    super(`data checks failed (strict), nothing published: ${describeFailures(failed)}`);
    this.name = 'DataChecksFailedError';
  }
}

export interface CheckBeforePublishInput {
  readonly stagingPath: string;
  /** The staging file's open connection (StagingWriter.closeAfter); without it, stagingPath is opened. */
  readonly connection?: DuckDBConnection;
  readonly snapshotDate: string;
  readonly runId: string;
  readonly segments: readonly Segment[];
  readonly mode: CheckMode;
  /** The data directory whose lake holds the previous snapshots (the history checks). */
  readonly dataDir: string;
  /** The history checks' tolerances (config `checks.history`); defaults when absent. */
  readonly history?: HistorySettings;
  readonly logger: Logger;
  readonly state: StateDb;
  readonly registry: RunRegistry;
  now(): Date;
}

/**
 * Runs the data checks on the staged figures, records and logs their results; in strict mode
 * a failing rule check stops the run before its publish (DataChecksFailedError).
 */
export async function checkBeforePublish(input: CheckBeforePublishInput): Promise<DataCheckSummary> {
  const outcome = await runChecks(input);
  if (!('results' in outcome)) return outcome; // the checks could not run
  const results = outcome.results.map((r) => ({ ...r, campaigns: r.campaigns.slice(0, LISTED_CAMPAIGNS) }));
  const { rules, history } = splitByKind(results);
  const failed = rules.filter((r) => r.status === 'failed');
  // Like a failing history check, one that cannot run (an unreadable previous snapshot) warns.
  if (outcome.historyError) input.logger.warn({ err: outcome.historyError }, outcome.historyError);
  saveDataCheckRecord(input.state, recordOf(input, results));
  logResults(input.logger, outcome, rules, history);
  // History checks never stop a run (a change across days can be real): strict is about rules.
  if (failed.length && input.mode === 'strict') {
    // The failing campaigns are fetched again by the next attempt (the others stay staged):
    // a refresh caught half-way may be consistent on a second look.
    input.registry.forgetUnits(
      input.snapshotDate,
      outcome.results
        .filter((r) => r.kind !== 'history' && r.status === 'failed')
        .flatMap((r) => r.campaigns.map((id) => ({ segment: r.segment, unit: `campaign:${id}` }))),
    );
    throw new DataChecksFailedError(failed);
  }
  return {
    mode: input.mode,
    ran: rules.length,
    failed,
    history: {
      results: history,
      files: outcome.historyFiles.length,
      durationMs: outcome.historyMs,
      ...(outcome.historyError ? { error: outcome.historyError } : {}),
    },
    drift: outcome.drift,
    durationMs: outcome.durationMs,
  };
}

/**
 * The checks' outcome; or, when they cannot run, the summary saying so (a strict run stops
 * instead). The figures are as fetched either way: a default run publishes and says so.
 */
async function runChecks(input: CheckBeforePublishInput): Promise<DataCheckOutcome | DataCheckSummary> {
  try {
    return await runDataChecks(
      {
        stagingPath: input.stagingPath,
        snapshotDate: input.snapshotDate,
        runId: input.runId,
        segments: input.segments,
        dataDir: input.dataDir,
        ...(input.history ? { history: input.history } : {}),
      },
      input.connection,
    );
  } catch (error) {
    const message = `data checks could not run: ${firstLine(error)}`;
    if (input.mode === 'strict') throw new Error(`${message} (strict: nothing published)`, { cause: error });
    input.logger.error({ err: message }, message);
    saveDataCheckRecord(input.state, { ...recordOf(input, []), error: message });
    return {
      mode: input.mode,
      ran: 0,
      failed: [],
      history: NO_HISTORY,
      drift: [],
      durationMs: 0,
      error: message,
    };
  }
}

/** A warning per failed check (rules, then history), the drift found, and one line of totals. */
function logResults(
  logger: Logger,
  outcome: DataCheckOutcome,
  rules: readonly DataCheckResult[],
  history: readonly DataCheckResult[],
): void {
  const failed = rules.filter((r) => r.status === 'failed');
  const historyFailed = history.filter((r) => r.status === 'failed');
  for (const r of [...failed, ...historyFailed])
    logger.warn(
      {
        check: r.check,
        kind: r.kind,
        segment: r.segment,
        failing: r.failing,
        campaigns: r.campaigns,
        ...(r.comparedWith ? { comparedWith: r.comparedWith } : {}),
      },
      `${r.kind === 'history' ? 'history' : 'data'} check failed: ${r.check} (${r.segment}) for ${r.failingCampaigns} campaign(s)${r.comparedWith ? `, against ${r.comparedWith}` : ''}`,
    );
  if (outcome.drift.length)
    logger.info({ drift: outcome.drift }, 'schema drift: names the spec does not list');
  logger.info(
    {
      checks: rules.length,
      failed: failed.length,
      historyChecks: history.length,
      historyFailed: historyFailed.length,
      comparedWith: comparedWith(history),
      historyFiles: outcome.historyFiles.length,
      durationMs: Math.round(outcome.durationMs),
      historyMs: Math.round(outcome.historyMs),
    },
    'data checks done',
  );
}

/** Rule checks apart from history checks (a record saved before history checks: all rules). */
export function splitByKind(results: readonly DataCheckResult[]): {
  rules: DataCheckResult[];
  history: DataCheckResult[];
} {
  return {
    rules: results.filter((r) => r.kind !== 'history'),
    history: results.filter((r) => r.kind === 'history'),
  };
}

function comparedWith(history: readonly DataCheckResult[]): string[] {
  return [...new Set(history.flatMap((r) => (r.comparedWith ? [r.comparedWith] : [])))].sort();
}

/**
 * The history checks in one line, for the summary and `status`: against which snapshot (and
 * that nights were missed when it is not the day before), what failed.
 */
export function describeHistory(snapshotDate: string, history: readonly DataCheckResult[]): string {
  if (!history.length) return 'did not run';
  const dates = comparedWith(history);
  if (!dates.length) return `${history.length} skipped (no previous snapshot to compare with)`;
  const against = dates
    .map((date) => {
      const days = Math.round((Date.parse(snapshotDate) - Date.parse(date)) / 86_400_000);
      return days > 1 ? `${date}, ${days} days before: nights missed, compared anyway` : date;
    })
    .join('; ');
  const failed = history.filter((r) => r.status === 'failed');
  const skipped = history.filter((r) => r.status === 'skipped').length;
  const outcome = failed.length
    ? `${failed.length} of ${history.length} FAILED (warnings, never failing the run): ${describeFailures(failed)}`
    : `${history.length} ran, none failed`;
  return `against ${against}: ${outcome}${skipped ? ` (${skipped} skipped: nothing to compare yet)` : ''}`;
}

function recordOf(input: CheckBeforePublishInput, results: readonly DataCheckResult[]): DataCheckRecord {
  return {
    runId: input.runId,
    snapshotDate: input.snapshotDate,
    mode: input.mode,
    checkedAt: input.now().toISOString(),
    results,
  };
}

/** One line: each failing check, its segment, and its first campaigns. */
/** "N of M FAILED<note>: ..." or "M ran, none failed": the summary's and status's line. */
export function describeOutcome(ran: number, failed: readonly DataCheckResult[], note = ''): string {
  return failed.length
    ? `${failed.length} of ${ran} FAILED${note}: ${describeFailures(failed)}`
    : `${ran} ran, none failed`;
}

export function describeFailures(failed: readonly DataCheckResult[]): string {
  return failed
    .map((r) => {
      const more = r.failingCampaigns > r.campaigns.length ? ', ...' : '';
      return `${r.check} (${r.segment}: ${r.failingCampaigns} campaign(s): ${r.campaigns.join(', ')}${more})`;
    })
    .join('; ');
}
