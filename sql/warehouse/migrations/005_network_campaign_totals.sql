-- 005_network_campaign_totals: each campaign_network_metrics row carries its campaign's totals
-- for the same snapshot and segment, so that network_breakdown computes its shares row by row
-- (a filter on snapshot_date, even a subquery's value, then skips the other dates' rows,
-- where a window over the table read every date first). Normalization fills them; rows
-- published before this migration get them when the lake is upgraded (sql/warehouse/backfill/).

-- Sums over the campaign's networks (NULL when every network's figure is NULL): a share of a
-- network is its figure over these, so the shares of one campaign add up to 1.
alter table campaign_network_metrics add column campaign_posts bigint; -- the campaign's posts: the sum of num_posts over its networks
alter table campaign_network_metrics add column campaign_engagement bigint; -- the campaign's engagement: the sum of engagement over its networks
alter table campaign_network_metrics add column campaign_emv double; -- the campaign's EMV: the sum of emv over its networks
-- The campaign-level total_reach as fetched (campaign_metrics), never a sum: one person reached
-- on two networks counts once (rules on reach 1 and 4).
alter table campaign_network_metrics add column campaign_total_reach bigint;

-- Rows staged by the previous release (a run resumed across the upgrade) get them here, as
-- normalization would have given them; elsewhere the tables are empty.
update campaign_network_metrics as n
set
  campaign_posts = t.campaign_posts,
  campaign_engagement = t.campaign_engagement,
  campaign_emv = t.campaign_emv
from (
  select snapshot_date, segment, campaign_id,
         cast(sum(num_posts) as bigint) as campaign_posts,
         cast(sum(engagement) as bigint) as campaign_engagement,
         sum(emv) as campaign_emv
    from campaign_network_metrics
   group by snapshot_date, segment, campaign_id
) as t
where t.snapshot_date = n.snapshot_date and t.segment = n.segment and t.campaign_id = n.campaign_id;

update campaign_network_metrics as n
set campaign_total_reach = m.total_reach
from campaign_metrics as m
where m.snapshot_date = n.snapshot_date and m.segment = n.segment and m.campaign_id = n.campaign_id;
