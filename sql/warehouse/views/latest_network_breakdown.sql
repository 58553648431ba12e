-- latest_network_breakdown: network_breakdown at the latest snapshot_date of each segment
-- (as latest_campaign_network_metrics): each network's figures and its share of the
-- campaign's posts, engagement and EMV. Same columns and rules as network_breakdown (see
-- there: shares add up to 1 per campaign; reach has no share and is never summed). Reads one
-- day's files, where `network_breakdown where snapshot_date = (select max(...))` lists and
-- reads the whole history.

with

campaign_network_metrics as (

    -- lake_latest holds only the latest snapshot of each segment (kept up to date by each
    -- publish), so this reads one day's files rather than the whole history.
    select * from lake_latest.campaign_network_metrics

),

campaign_metrics as (

    select * from lake_latest.campaign_metrics

),

campaigns as (

    select * from main.campaigns

),

campaign_sums as (

    select
        *,
        sum(num_posts) over campaign_window as campaign_posts,
        sum(engagement) over campaign_window as campaign_engagement,
        sum(emv) over campaign_window as campaign_emv
    from campaign_network_metrics
    window campaign_window as (partition by snapshot_date, segment, campaign_id)

),

breakdown as (

    select
        n.snapshot_date,
        n.segment,
        n.campaign_id,
        c.name as campaign_name,
        n.network,
        n.num_posts,
        n.num_influencers,
        n.engagement,
        n.engagement_rate,
        n.reach,
        n.emv,
        n.num_posts / nullif(n.campaign_posts, 0) as share_of_posts,
        n.engagement / nullif(n.campaign_engagement, 0) as share_of_engagement,
        n.emv / nullif(n.campaign_emv, 0) as share_of_emv,
        m.total_reach as campaign_total_reach
    from campaign_sums as n
    left join campaign_metrics as m
        on m.snapshot_date = n.snapshot_date
        and m.segment = n.segment
        and m.campaign_id = n.campaign_id
    left join campaigns as c
        on c.campaign_id = n.campaign_id

)

select * from breakdown
