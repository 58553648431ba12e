-- latest_campaign_network_metrics: rows of campaign_network_metrics at the latest snapshot_date of each segment (a segment
-- not synced lately keeps showing its last complete day).
-- Columns, as in campaign_network_metrics: snapshot_date, segment, campaign_id, network; num_posts, num_influencers, engagement, engagement_rate, reach (this network only), emv.
-- Reach figures are passed through at the level they were fetched, never summed
-- (spec, rules on reach 1 to 4).

with

campaign_network_metrics as (

    select * from main.campaign_network_metrics

),

latest as (

    select *
    from campaign_network_metrics
    qualify snapshot_date = max(snapshot_date) over (partition by segment)

)

select * from latest
