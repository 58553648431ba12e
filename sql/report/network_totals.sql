-- network_totals: per network at $to in $segment, summed over the campaigns in scope
-- ($campaigns, a JSON array; [] for all): posts, engagement and EMV, which add up across
-- campaigns. Reach does not (a person reached by two campaigns counts once in each), so
-- it is not here: see network_reach.
-- Columns: network, campaigns, posts, engagement, emv

with

campaign_network_metrics as (

    select campaign_id, network, num_posts, engagement, emv
    from main.campaign_network_metrics
    where snapshot_date = $to and segment = $segment
        and ($campaigns = '[]' or list_contains(cast($campaigns::json as varchar[]), campaign_id))

),

totals as (

    select
        network,
        count(distinct campaign_id) as campaigns,
        sum(num_posts) as posts,
        sum(engagement) as engagement,
        sum(emv) as emv
    from campaign_network_metrics
    group by network

)

select * from totals order by engagement desc nulls last, network
