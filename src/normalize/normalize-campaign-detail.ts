import type { RawRecord } from '../api/types.js';
import type { CampaignRowContext } from './campaign-row-context.js';
import { isRecord, json, objectAt, toCount, toDate, toId, toNumber, toText } from './coerce.js';
import type { RefusedValues } from './refused-values.js';
import type { Row, TableRows, Value } from './rows.js';
import { pushStatRows } from './stat-rows.js';

/**
 * GET /v3/influencers/campaigns/{id} → `campaign_metrics` (the `metrics` object),
 * `campaign_network_metrics` and `campaign_network_stats` (each `sources` entry, networks
 * the spec does not list included), and, for the unfiltered view, the `campaigns` entity:
 * the list record merged with the detail, less `metrics` and `sources`. Accepts the detail
 * with or without its `campaign` wrapper. Each network row carries its campaign's totals (the
 * sums over its networks, and the campaign's total_reach), which network_breakdown divides by.
 */
export function normalizeCampaignDetail(
  detail: RawRecord,
  listRecord: RawRecord | undefined,
  ctx: CampaignRowContext,
): TableRows {
  const campaign = isRecord(detail.campaign) ? detail.campaign : detail;
  const key = { snapshot_date: ctx.snapshotDate, segment: ctx.segment, campaign_id: ctx.campaignId };
  const m = objectAt(campaign, 'metrics') ?? {};
  const { refused } = ctx;
  const out: Required<
    Pick<TableRows, 'campaign_metrics' | 'campaign_network_metrics' | 'campaign_network_stats'>
  > &
    TableRows = {
    campaign_metrics: [
      {
        ...key,
        num_posts: toCount(m.num_posts, 'campaign_metrics.num_posts', refused),
        num_influencers: toCount(m.num_influencers, 'campaign_metrics.num_influencers', refused),
        total_engagement: toCount(m.total_engagement, 'campaign_metrics.total_engagement', refused),
        engagement_rate: toNumber(m.engagement_rate, 'campaign_metrics.engagement_rate', refused),
        total_reach: toCount(m.total_reach, 'campaign_metrics.total_reach', refused),
        total_emv: toNumber(m.total_emv, 'campaign_metrics.total_emv', refused),
      },
    ],
    campaign_network_metrics: [],
    campaign_network_stats: [],
  };
  const sources = objectAt(campaign, 'sources') ?? {};
  for (const network in sources) {
    const s = sources[network];
    if (!isRecord(s)) continue;
    out.campaign_network_metrics.push({
      ...key,
      network,
      num_posts: toCount(s.num_posts, 'campaign_network_metrics.num_posts', refused),
      num_influencers: toCount(s.num_influencers, 'campaign_network_metrics.num_influencers', refused),
      engagement: toCount(s.engagement, 'campaign_network_metrics.engagement', refused),
      engagement_rate: toNumber(s.engagement_rate, 'campaign_network_metrics.engagement_rate', refused),
      reach: toCount(s.reach, 'campaign_network_metrics.reach', refused),
      emv: toNumber(s.emv, 'campaign_network_metrics.emv', refused),
    });
    pushStatRows(out.campaign_network_stats, 'campaign_network_stats', s.stats, refused, (stat, value) => ({
      ...key,
      network,
      stat,
      value,
    }));
  }
  const totals = {
    campaign_posts: sumOfCounts(out.campaign_network_metrics, 'num_posts', 'campaign_posts', refused),
    campaign_engagement: sumOfCounts(
      out.campaign_network_metrics,
      'engagement',
      'campaign_engagement',
      refused,
    ),
    campaign_emv: sumOf(out.campaign_network_metrics, 'emv'),
    campaign_total_reach: out.campaign_metrics[0]!.total_reach,
  };
  out.campaign_network_metrics = out.campaign_network_metrics.map((row) => ({ ...row, ...totals }));
  if (ctx.segment === 'all') {
    const { metrics: _m, sources: _s, ...attributes } = campaign;
    const merged: Record<string, unknown> = { ...listRecord, ...attributes };
    const row: Row = {
      campaign_id: ctx.campaignId,
      name: toText(merged.name),
      workspace_id: toId(merged.workspace_id),
      status: toText(merged.status),
      start_date: toDate(merged.start_date),
      end_date: toDate(merged.end_date),
      raw: json(merged),
      first_seen_at: ctx.seenAt,
      last_seen_at: ctx.seenAt,
    };
    out.campaigns = [row];
  }
  return out;
}

/**
 * The sum of a count column over rows, as SQL's sum (NULLs skipped, NULL when every value is),
 * exact: in bigint once it passes 2^53 (a count beyond it is decimal text: toCount), returned
 * as decimal text then; a sum beyond BIGINT is refused.
 */
function sumOfCounts(rows: readonly Row[], column: string, total: string, refused?: RefusedValues): Value {
  let sum: number | null = null;
  let text = false;
  for (const row of rows) {
    const value = row[column];
    if (typeof value === 'number') sum = (sum ?? 0) + value;
    else if (typeof value === 'string') text = true;
  }
  if (!text && (sum === null || Number.isSafeInteger(sum))) return sum;
  // Past 2^53 a double sum may be off: summed again exactly.
  let exact = 0n;
  for (const row of rows) {
    const value = row[column];
    if (typeof value === 'number' || typeof value === 'string') exact += BigInt(value);
  }
  return toCount(exact, `campaign_network_metrics.${total}`, refused);
}

/** The sum of a column over rows, as SQL's sum: NULLs skipped, NULL when every value is. */
function sumOf(rows: readonly Row[], column: string): number | null {
  let sum: number | null = null;
  for (const row of rows) {
    const value = row[column];
    if (typeof value === 'number') sum = (sum ?? 0) + value;
  }
  return sum;
}
