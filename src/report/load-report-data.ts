/**
 * Reads everything the report shows from the published warehouse, in one read-only
 * session (one consistent published state), after checking --segment and --campaign
 * against what the warehouse holds.
 */
import type { Value } from '../normalize/rows.js';
import { firstLine } from '../util/first-line.js';
import { UserError } from '../util/user-error.js';
import { type ReadQuery, withReadOnly } from '../warehouse/index.js';
import {
  MAX_CHECK_FAILURES,
  type ReportOptions,
  TOP_CAMPAIGNS,
  TOP_CHANGES,
  TOP_INFLUENCERS,
  windowStart,
} from './report-options.js';
import { type ReportQueryName, reportSql } from './report-sql.js';

export type Row = Record<string, Value>;

/** The data checks of the latest checked snapshot, when the warehouse has the checks' views. */
export type ChecksData =
  | { readonly recorded: false; readonly unreadable?: string }
  | {
      readonly recorded: true;
      readonly snapshot: string | null;
      readonly checks: Row[];
      readonly failures: Row[];
      /** What the failing history checks found at the latest snapshot of the window. */
      readonly historyFailures: Row[];
    };

export interface ReportData {
  readonly generatedAt: string;
  readonly segment: string;
  /** Campaign ids asked for (empty: all). */
  readonly campaigns: readonly string[];
  readonly days: number;
  /** The snapshot window in the segment; null when the segment has no snapshot yet. */
  readonly window: { readonly from: string; readonly to: string } | null;
  readonly documentsWindow: { readonly from: string; readonly to: string } | null;
  readonly freshness: Row;
  readonly checks: ChecksData;
  /** The campaigns that moved most since the previous snapshot (campaign_changes.sql). */
  readonly changes: Row[];
  /** Campaigns followed over time: campaign_id, campaign (label), rank. */
  readonly followed: Row[];
  readonly history: Row[];
  readonly networkTotals: Row[];
  readonly networkReach: Row[];
  readonly influencers: Row[];
  readonly sales: Row[];
  readonly documents: Row[];
}

/** The views over what the data checks found (sql/warehouse/views/); older warehouses have neither. */
const CHECK_VIEWS = ['data_checks', 'data_check_failures'] as const;

export async function loadReportData(options: ReportOptions, now = new Date()): Promise<ReportData> {
  return withReadOnly(options.dataDir, async (query) => {
    const run = async (name: ReportQueryName, params: Record<string, Value>): Promise<Row[]> =>
      toRows(await query(reportSql(name), params));
    const campaigns = JSON.stringify(options.campaigns);
    const [bounds] = await run('window', { segment: options.segment });
    const segments = bounds?.segments ? String(bounds.segments).split(',') : [];
    if (options.segment !== 'all' && !segments.includes(options.segment)) {
      throw new UserError(
        `unknown segment "${options.segment}": the warehouse has ${segments.map((s) => `"${s}"`).join(', ') || 'no segment yet'}`,
      );
    }
    if (options.campaigns.length > 0) {
      const unknown = (await run('unknown_campaigns', { campaigns })).map((r) => String(r.campaign_id));
      if (unknown.length > 0)
        throw new UserError(
          `unknown campaign id${unknown.length > 1 ? 's' : ''} ${unknown.map((id) => `"${id}"`).join(', ')}`,
        );
    }
    const to = (bounds?.latest_snapshot as string | null) ?? null;
    const window = to ? { from: windowStart(to, options.days), to } : null;
    const documentsTo = (bounds?.documents_to as string | null) ?? null;
    const documentsWindow = documentsTo
      ? { from: windowStart(documentsTo, options.days), to: documentsTo }
      : null;
    const [freshness = {}] = await run('freshness', {});
    const checks = await loadChecks(query, run, options.segment, campaigns, window?.to ?? null);
    const facts = window ? await loadFacts(run, options, window, campaigns) : NO_FACTS;
    const documents = documentsWindow ? await run('documents_daily', documentsWindow) : [];
    return {
      generatedAt: now.toISOString(),
      segment: options.segment,
      campaigns: options.campaigns,
      days: options.days,
      window,
      documentsWindow,
      freshness,
      checks,
      ...facts,
      documents,
    };
  });
}

type Run = (name: ReportQueryName, params: Record<string, Value>) => Promise<Row[]>;

type Facts = Pick<
  ReportData,
  'changes' | 'followed' | 'history' | 'networkTotals' | 'networkReach' | 'influencers' | 'sales'
>;

/** What a segment without any snapshot shows: every campaign section empty. */
export const NO_FACTS: Facts = {
  changes: [],
  followed: [],
  history: [],
  networkTotals: [],
  networkReach: [],
  influencers: [],
  sales: [],
};

async function loadFacts(
  run: Run,
  options: ReportOptions,
  window: { from: string; to: string },
  campaigns: string,
): Promise<Facts> {
  const { segment } = options;
  const { from, to } = window;
  const followed = await run('top_campaigns', { segment, to, campaigns, top: TOP_CAMPAIGNS });
  const ids = JSON.stringify(followed.map((r) => r.campaign_id));
  return {
    changes: await run('campaign_changes', { segment, to, campaigns, top: TOP_CHANGES }),
    followed,
    history: await run('campaign_history', { segment, from, to, ids }),
    networkTotals: await run('network_totals', { segment, to, campaigns }),
    networkReach: await run('network_reach', { segment, to, ids }),
    influencers: await run('top_influencers', { segment, to, campaigns, top: TOP_INFLUENCERS }),
    sales: await run('sales_by_currency', { segment, to, campaigns }),
  };
}

async function loadChecks(
  query: ReadQuery,
  run: Run,
  segment: string,
  campaigns: string,
  latest: string | null,
): Promise<ChecksData> {
  const views = await query(
    `select view_name from duckdb_views() where schema_name = 'main' and view_name in (${CHECK_VIEWS.map((v) => `'${v}'`).join(', ')})`,
  );
  if (views.rows.length < CHECK_VIEWS.length) return { recorded: false };
  try {
    const checks = await run('data_checks', { segment });
    const snapshot = (checks[0]?.snapshot_date as string | undefined) ?? null;
    const failures = snapshot
      ? await run('data_check_failures', { segment, snapshot, campaigns, top: MAX_CHECK_FAILURES })
      : [];
    const historyFailures = latest
      ? await run('history_check_failures', { segment, to: latest, campaigns, top: MAX_CHECK_FAILURES })
      : [];
    return { recorded: true, snapshot, checks, failures, historyFailures };
  } catch (error) {
    // Views of another shape than the data checks' contract: the rest of the report still stands.
    return { recorded: false, unreadable: firstLine(error) };
  }
}

function toRows(result: { columns: string[]; rows: Value[][] }): Row[] {
  return result.rows.map((row) => Object.fromEntries(result.columns.map((c, i) => [c, row[i] ?? null])));
}
