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

),

asked as (

    select unnest(cast($campaigns::json as varchar[])) as campaign_id

),

scoped as (

    select *
    from campaign_network_metrics
    where (select count(*) from asked) = 0 or campaign_id in (select campaign_id from asked)

),

totals as (

    select
        network,
        count(distinct campaign_id) as campaigns,
        sum(num_posts) as posts,
        sum(engagement) as engagement,
        sum(emv) as emv
    from scoped
    group by network

)

select * from totals order by engagement desc nulls last, network
