/**
 * Each campaign_network_metrics row's key and campaign totals (EMV rounded to 6 digits, as a
 * sum of doubles depends on its order) as network_breakdown computed them before migration
 * 005: a window over `networks` and `campaigns`' total_reach (two sources of those tables' rows).
 */
export function totalsBefore(networks: string, campaigns: string): string {
  return `(select n.snapshot_date, n.segment, n.campaign_id, n.network,
      sum(n.num_posts) over w as campaign_posts, sum(n.engagement) over w as campaign_engagement,
      round(sum(n.emv) over w, 6) as campaign_emv, m.total_reach as campaign_total_reach
    from ${networks} n left join ${campaigns} m using (snapshot_date, segment, campaign_id)
    window w as (partition by n.snapshot_date, n.segment, n.campaign_id))`;
}

/** The same columns as campaign_network_metrics holds them now. */
export const TOTALS_HELD = `(select snapshot_date, segment, campaign_id, network, campaign_posts,
    campaign_engagement, round(campaign_emv, 6) as campaign_emv, campaign_total_reach
  from campaign_network_metrics)`;
