import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../util/package-root.js';

/** The report's queries, one file each in sql/report/ (see its README for the parameters). */
export type ReportQueryName =
  | 'window'
  | 'unknown_campaigns'
  | 'freshness'
  | 'top_campaigns'
  | 'campaign_history'
  | 'network_totals'
  | 'network_reach'
  | 'top_influencers'
  | 'sales_by_currency'
  | 'documents_daily'
  | 'data_checks'
  | 'data_check_failures'
  | 'campaign_changes'
  | 'history_check_failures';

const cache = new Map<ReportQueryName, string>();

export function reportSql(name: ReportQueryName): string {
  let sql = cache.get(name);
  if (sql === undefined) {
    sql = readFileSync(join(packageRoot(), 'sql', 'report', `${name}.sql`), 'utf8');
    cache.set(name, sql);
  }
  return sql;
}
