-- latest_campaign_metrics: rows of campaign_metrics at the latest snapshot_date of each segment (a segment
-- not synced lately keeps showing its last complete day).
-- Columns, as in campaign_metrics: snapshot_date, segment, campaign_id; num_posts, num_influencers, total_engagement, engagement_rate, total_reach (the campaign-level reach), total_emv.
-- Reach figures are passed through at the level they were fetched, never summed
-- (spec, rules on reach 1 to 4).

with

latest as (

    -- lake_latest.campaign_metrics holds only the latest snapshot of each segment (kept up to date by
    -- each publish), so this reads one day's files rather than the whole history.
    select * from lake_latest.campaign_metrics

)

select * from latest
