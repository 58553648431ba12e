/**
 * What `status` says of the data checks: the latest run's failing checks and campaigns
 * (from the state database, so a run `--strict` stopped is reported too) and the schema
 * drift first seen in the latest published snapshot.
 */
import { describeHistory, describeOutcome, splitByKind } from '../extract/check-before-publish.js';
import { type DataCheckRecord, loadDataCheckRecord } from '../state/data-check-record.js';
import type { StateDb } from '../state/state-db.js';
import type { DataCheckResult, DriftObservation, ReadQuery } from '../warehouse/index.js';

/** The latest run's record, its rule checks reduced to how many ran and those that failed. */
export type DataCheckStatus = Omit<DataCheckRecord, 'results'> & {
  /** Rule checks run, each once per segment. */
  readonly ran: number;
  readonly failed: readonly DataCheckResult[];
  /** The history checks, each once per segment (none before they existed). */
  readonly history: readonly DataCheckResult[];
};

/** Drift as the schema_drift view has it: over the segments, so without one. */
export type NewDrift = Omit<DriftObservation, 'segment'>;

export function dataCheckStatus(state: StateDb): DataCheckStatus | null {
  const record = loadDataCheckRecord(state);
  if (!record) return null;
  const { results, ...rest } = record;
  const { rules, history } = splitByKind(results);
  return { ...rest, ran: rules.length, failed: rules.filter((r) => r.status === 'failed'), history };
}

/**
 * The published checks of `snapshotDate` (the data_checks and data_check_failures views), for
 * when the state's record is of another day; undefined when none were published for it.
 */
export async function publishedDataChecks(
  query: ReadQuery,
  snapshotDate: string,
  mode: DataCheckStatus['mode'] = 'warn',
): Promise<DataCheckStatus | undefined> {
  // A warehouse published before the history checks has no kind nor compared_with: all rule.
  const read = (withKind: boolean) =>
    query(
      `select c.run_id, c.segment, c.check_name, c.status, c.checked, c.failing,
              count(distinct f.campaign_id) as campaigns,
              string_agg(distinct f.campaign_id, ',' order by f.campaign_id) as ids,
              ${withKind ? 'c.kind, c.compared_with' : `'rule', null`}
         from data_checks c
         left join data_check_failures f using (snapshot_date, segment, check_name)
        where c.snapshot_date = $1::date
        group by all order by c.segment, c.check_name`,
      [snapshotDate],
    );
  const { rows } = await read(true)
    .catch((error: unknown) => {
      if (/column "(kind|compared_with)" not found/i.test((error as Error).message)) return read(false);
      throw error;
    })
    .catch((error: unknown) => {
      if (/data_checks does not exist/i.test((error as Error).message)) return { rows: [] };
      throw error;
    });
  if (!rows.length) return undefined;
  const results: DataCheckResult[] = rows.map(
    ([, segment, check, status, checked, failing, campaigns, ids, kind, compared]) => ({
      segment: String(segment),
      check: String(check),
      kind: kind === 'history' ? 'history' : 'rule',
      ...(compared === null || compared === undefined ? {} : { comparedWith: String(compared) }),
      status: status as DataCheckResult['status'],
      checked: Number(checked),
      failing: Number(failing),
      failingCampaigns: Number(campaigns),
      campaigns: ids === null ? [] : String(ids).split(','),
    }),
  );
  const { rules, history } = splitByKind(results);
  return {
    runId: String(rows[0]?.[0]),
    snapshotDate,
    mode,
    checkedAt: '',
    ran: rules.length,
    failed: rules.filter((r) => r.status === 'failed'),
    history,
  };
}

/** Drift whose first_seen is `snapshotDate`; none when the warehouse predates the view. */
export async function newDrift(query: ReadQuery, snapshotDate: string): Promise<NewDrift[]> {
  const result = await query(
    `select level, kind, name, occurrences from schema_drift
      where snapshot_date = $1::date and first_seen = snapshot_date order by level, kind, name`,
    [snapshotDate],
  ).catch((error: unknown) => {
    if (/schema_drift does not exist/i.test((error as Error).message)) return { rows: [] };
    throw error;
  });
  return result.rows.map(([level, kind, name, occurrences]) => ({
    level: String(level),
    kind: String(kind),
    name: String(name),
    occurrences: Number(occurrences),
  }));
}

export function formatDataCheckStatus(checks: DataCheckStatus | null, drift: readonly NewDrift[]): string[] {
  const out: string[] = [];
  if (checks) {
    const head = `data checks (snapshot ${checks.snapshotDate}, run ${checks.runId}, ${checks.mode}):`;
    out.push(`${head} ${checks.error || describeOutcome(checks.ran, checks.failed)}`);
    if (checks.history.length)
      out.push(`history checks: ${describeHistory(checks.snapshotDate, checks.history)}`);
  }
  if (drift.length)
    out.push(
      `new schema drift: ${drift.map((d) => `${d.level} ${d.kind} ${d.name} (${d.occurrences})`).join(', ')}`,
    );
  return out;
}
