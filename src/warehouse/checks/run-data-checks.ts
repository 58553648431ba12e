import { join } from 'node:path';
import { type DuckDBConnection, listValue } from '@duckdb/node-api';
import { firstLine } from '../../util/first-line.js';
import { packageRoot } from '../../util/package-root.js';
import { readSqlFiles } from '../duckdb/create-views.js';
import { openWriter, STAGING_SETTINGS } from '../duckdb/open-database.js';
import { sqlBody, withoutSemicolon } from '../duckdb/sql-body.js';
import { sqlString } from '../duckdb/warehouse-paths.js';
import type { DataCheckInput, DataCheckOutcome, DataCheckResult, DriftObservation } from '../types.js';
import { prepareHistory } from './history-checks.js';
import { HISTORY_DEFAULTS } from './history-defaults.js';

/**
 * A data check: sql/checks/<name>.sql (a rule check, see _prepare.sql there) or
 * sql/checks/history/<name>.sql (a history check, see _prepare.sql there) selects one row
 * per comparison: segment, campaign_id, entity_id, expected, actual, ok.
 */
export interface DataCheckDefinition {
  readonly name: string;
  readonly sql: string;
}

const CHECKS_DIR = join(packageRoot(), 'sql', 'checks');
const HISTORY_CHECKS_DIR = join(CHECKS_DIR, 'history');
const CHECK_TABLES = ['check_results', 'check_failures', 'drift_observations'] as const;
/** What sql/checks/_drift.sql prepares, stored one at a time (see there). */
const DRIFT_VIEWS = ['drift_fields', 'drift_stats', 'drift_networks'] as const;

/**
 * The checks of sql/checks (kind 'rule') or sql/checks/history ('history') in name order;
 * files starting with `_` are their preparation.
 */
export function listDataChecks(kind: 'rule' | 'history' = 'rule'): DataCheckDefinition[] {
  return readSqlFiles(kind === 'rule' ? CHECKS_DIR : HISTORY_CHECKS_DIR)
    .filter((check) => !check.name.startsWith('_'))
    .map((check) => ({ name: check.name, sql: withoutSemicolon(check.sql) }));
}

/**
 * Runs every data check and the schema-drift scan on a staging file, and stages what they
 * found in it (check_results, check_failures, drift_observations), replacing what an
 * earlier attempt of the run staged: they then publish with the run's facts. Reads only
 * staged rows (no API request). Each check's comparisons are made and counted in SQL; only
 * the failing rows are kept. `connection`: the staging file's, flushed (StagingWriter.closeAfter),
 * left open; without it the closed file at input.stagingPath is
 * opened and closed again.
 */
export async function runDataChecks(
  input: DataCheckInput,
  connection?: DuckDBConnection,
): Promise<DataCheckOutcome> {
  const started = performance.now();
  if (connection) return checkStaging(connection, input, started);
  const db = await openWriter(input.stagingPath, STAGING_SETTINGS);
  try {
    return await checkStaging(db.connection, input, started);
  } finally {
    await db.close();
  }
}

/** runDataChecks on the staging file it opened (`started`: when it began, for durationMs). */
async function checkStaging(
  c: DuckDBConnection,
  input: DataCheckInput,
  started: number,
): Promise<DataCheckOutcome> {
  await runRuleChecks(c, input);
  // The history checks in a transaction of their own: one that cannot run (an unreadable
  // previous snapshot) leaves the rule checks' results as they are, and never fails a run.
  const historyStarted = performance.now();
  let historyFiles: readonly string[] = [];
  let historyError: string | undefined;
  if (input.dataDir) {
    try {
      await c.run('begin transaction');
      historyFiles = await runHistoryChecks(c, input, input.dataDir);
      await c.run('commit');
    } catch (error) {
      await c.run('rollback').catch(() => {});
      historyError = `history checks could not run: ${firstLine(error)}`;
    }
  }
  const historyMs = input.dataDir ? performance.now() - historyStarted : 0;
  const outcome = { results: await readResults(c), drift: await readDrift(c) };
  return {
    ...outcome,
    durationMs: performance.now() - started,
    historyMs,
    historyFiles,
    ...(historyError ? { historyError } : {}),
  };
}

/**
 * The rule checks (sql/checks/) and the schema-drift scan, in one transaction, staged in
 * place of an earlier attempt's.
 */
async function runRuleChecks(c: DuckDBConnection, input: DataCheckInput): Promise<void> {
  await c.run('begin transaction');
  try {
    for (const table of CHECK_TABLES) await c.run(`delete from ${table}`);
    await c.run('create or replace temp table check_segments (segment varchar, sources varchar)');
    for (const segment of input.segments)
      await c.run('insert into check_segments values ($1, $2)', [
        segment.name,
        segment.sources?.length ? segment.sources.join(',') : null,
      ]);
    await step('data checks: _prepare.sql', c.run(sqlBody(join(CHECKS_DIR, '_prepare.sql'))));
    await runChecks(c, listDataChecks(), input, 'rule');
    await step('schema drift: _drift.sql', c.run(sqlBody(join(CHECKS_DIR, '_drift.sql'))));
    for (const view of DRIFT_VIEWS)
      await step(
        `schema drift: ${view}`,
        c.run(
          `insert into drift_observations select $1::date, segment, level, kind, name, occurrences from ${view}`,
          [input.snapshotDate],
        ),
      );
    await c.run('commit');
  } catch (error) {
    await c.run('rollback').catch(() => {});
    throw error;
  }
}

/**
 * The history checks (sql/checks/history/): the staged snapshot against the previous
 * snapshots of each segment in the lake of `dataDir`. Returns the lake files read.
 */
async function runHistoryChecks(
  c: DuckDBConnection,
  input: DataCheckInput,
  dataDir: string,
): Promise<readonly string[]> {
  const prepared = await step(
    'history checks: reading the previous snapshots',
    prepareHistory(
      c,
      dataDir,
      input.snapshotDate,
      input.segments.map((s) => s.name),
      input.history ?? HISTORY_DEFAULTS,
    ),
  );
  await step('history checks: _prepare.sql', c.run(sqlBody(join(HISTORY_CHECKS_DIR, '_prepare.sql'))));
  await runChecks(c, listDataChecks('history'), input, 'history');
  return prepared.files;
}

/**
 * The checks of one kind, each in two passes over its comparisons, so neither keeps them all
 * (a post-level check compares a million posts): the counts per segment (countChecks), then,
 * for a check with failing rows only, those rows, both into temp tables; the check tables of the staging file then get those of all
 * the checks in one insert each (46 inserts into them, two per check, cost more than the
 * checks of a demo-size sync).
 */
async function runChecks(
  c: DuckDBConnection,
  checks: readonly DataCheckDefinition[],
  input: DataCheckInput,
  kind: 'rule' | 'history',
): Promise<void> {
  await c.run(
    `create or replace temp table check_counts (check_name varchar, segment varchar, checked bigint, failing bigint);
     create or replace temp table check_failing (check_name varchar, segment varchar, campaign_id varchar,
       entity_id varchar, expected double, actual double)`,
  );
  const failing = await countChecks(c, checks, kind);
  // The second pass only where the first found failing rows: most checks pass.
  for (const check of checks.filter((check) => failing.has(check.name))) {
    await step(
      `data check ${check.name}`,
      c.run(
        `insert into check_failing select $1, segment, campaign_id, entity_id, expected, actual
           from (${check.sql}) where not ok`,
        [check.name],
      ),
    );
  }
  // Every check and segment of the run gets a row, even with nothing to compare (skipped). A
  // history check names the previous snapshot it compared with (history_previous).
  const comparedWith =
    kind === 'history'
      ? '(select p.snapshot_date from history_previous as p where p.segment = s.segment)'
      : 'null::date';
  await c.run(
    `insert into check_results
       (snapshot_date, segment, run_id, check_name, status, checked, failing, kind, compared_with)
     select $1::date, s.segment, $2, k.check_name,
            case when coalesce(r.failing, 0) > 0 then 'failed'
                 when coalesce(r.checked, 0) = 0 then 'skipped' else 'passed' end,
            coalesce(r.checked, 0), coalesce(r.failing, 0), $3, ${comparedWith}
       from check_segments as s
       cross join unnest($4::varchar[]) as k(check_name)
       left join check_counts as r on r.segment = s.segment and r.check_name = k.check_name`,
    [input.snapshotDate, input.runId, kind, listValue(checks.map((check) => check.name))],
  );
  await c.run(
    `insert into check_failures
     select $1::date, segment, check_name, campaign_id, entity_id, expected, actual from check_failing`,
    [input.snapshotDate],
  );
}

/**
 * Counts each check's comparisons and failing ones per segment into check_counts; returns the
 * names of the checks with failing rows. The rule checks read the small tables _prepare.sql
 * made (a row per campaign, network or influencer; one join of posts with a distinct list),
 * so they are counted in one statement: planning a statement costs more than such a check.
 * The history checks compare posts with the previous snapshot's, one statement each.
 */
async function countChecks(
  c: DuckDBConnection,
  checks: readonly DataCheckDefinition[],
  kind: 'rule' | 'history',
): Promise<Set<string>> {
  const count = (check: DataCheckDefinition) =>
    `select ${sqlString(check.name)}, segment, count(ok), count(*) filter (where not ok)
       from (${check.sql}) group by segment`;
  const insert = async (name: string, select: string) => {
    const reader = await step(
      name,
      c.runAndReadAll(`insert into check_counts ${select} returning check_name, failing`),
    );
    return reader
      .getRowsJS()
      .filter(([, failed]) => Number(failed) > 0)
      .map(([check]) => String(check));
  };
  // A rule check that cannot run fails the one statement of all, named by DuckDB's message.
  if (kind === 'rule') return new Set(await insert('data checks', checks.map(count).join('\n union all ')));
  const failing = new Set<string>();
  for (const check of checks)
    for (const name of await insert(`data check ${check.name}`, count(check))) failing.add(name);
  return failing;
}

/** Names the step of a failing statement (its error is DuckDB's, naming only the SQL). */
async function step<T>(name: string, work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    throw new Error(`${name}: ${firstLine(error)}`, { cause: error });
  }
}

async function readResults(c: DuckDBConnection): Promise<DataCheckResult[]> {
  const reader = await c.runAndReadAll(
    `select r.segment, r.check_name, r.kind, strftime(r.compared_with, '%Y-%m-%d') as compared_with,
            r.status, r.checked, r.failing,
            coalesce((select list(distinct f.campaign_id order by f.campaign_id) from check_failures as f
                       where f.segment = r.segment and f.check_name = r.check_name), []) as campaigns
       from check_results as r
      order by r.kind desc, r.check_name, r.segment`,
  );
  return reader.getRowObjectsJS().map((row) => {
    const campaigns = (row.campaigns as string[]) ?? [];
    return {
      segment: String(row.segment),
      check: String(row.check_name),
      kind: row.kind === 'history' ? 'history' : 'rule',
      ...(row.compared_with ? { comparedWith: String(row.compared_with) } : {}),
      status: row.status as DataCheckResult['status'],
      checked: Number(row.checked),
      failing: Number(row.failing),
      failingCampaigns: campaigns.length,
      campaigns,
    };
  });
}

async function readDrift(c: DuckDBConnection): Promise<DriftObservation[]> {
  const reader = await c.runAndReadAll(
    'select segment, level, kind, name, occurrences from drift_observations order by level, kind, name, segment',
  );
  return reader.getRowObjectsJS().map((row) => ({
    segment: String(row.segment),
    level: String(row.level),
    kind: String(row.kind),
    name: String(row.name),
    occurrences: Number(row.occurrences),
  }));
}

/** A SQL file's statement(s), without the trailing semicolon (so it can be nested). */
