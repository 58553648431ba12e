-- campaign_network_metrics rows published before migration 005 (005_network_campaign_totals):
-- each row's campaign totals, as normalization gives them now (src/normalize/
-- normalize-campaign-detail.ts): the sums over the campaign's networks of the same snapshot and
-- segment, and the campaign-level total_reach. Run once per data file lacking them when the
-- lake's schema changes (src/warehouse/lake/catalog/backfill-facts.ts), which reads
-- main.campaign_network_metrics as that file's rows (a file holds every network of its
-- campaigns' snapshots) and main.campaign_metrics as its live files of the same segment and period.
-- Sums grouped then joined, not a window: a year's file fits the upkeep's memory limit.

with

totals as (

    select
        snapshot_date,
        segment,
        campaign_id,
        cast(sum(num_posts) as bigint) as campaign_posts,
        cast(sum(engagement) as bigint) as campaign_engagement,
        sum(emv) as campaign_emv
    from main.campaign_network_metrics
    group by snapshot_date, segment, campaign_id

)

select
    n.*,
    t.campaign_posts,
    t.campaign_engagement,
    t.campaign_emv,
    m.total_reach as campaign_total_reach
from main.campaign_network_metrics as n
inner join totals as t
    on t.snapshot_date = n.snapshot_date
    and t.segment = n.segment
    and t.campaign_id = n.campaign_id
left join main.campaign_metrics as m
    on m.snapshot_date = n.snapshot_date
    and m.segment = n.segment
    and m.campaign_id = n.campaign_id
