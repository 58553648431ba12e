-- latest_campaign_metrics: rows of campaign_metrics at the latest snapshot_date of each segment (a segment
-- not synced lately keeps showing its last complete day).
-- Columns, as in campaign_metrics: snapshot_date, segment, campaign_id; num_posts, num_influencers, total_engagement, engagement_rate, total_reach (the campaign-level reach), total_emv.
-- Reach figures are passed through at the level they were fetched, never summed
-- (spec, rules on reach 1 to 4).

with

campaign_metrics as (

    select * from main.campaign_metrics

),

latest as (

    select *
    from campaign_metrics
    qualify snapshot_date = max(snapshot_date) over (partition by segment)

)

select * from latest
