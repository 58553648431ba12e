-- latest_post_metrics: rows of post_metrics at the latest snapshot_date of each segment (a segment
-- not synced lately keeps showing its last complete day).
-- Columns, as in post_metrics: snapshot_date, segment, campaign_id, post_id, influencer_id, network; engagement, reach (this post), emv.
-- Reach figures are passed through at the level they were fetched, never summed
-- (spec, rules on reach 1 to 4).

with

post_metrics as (

    select * from main.post_metrics

),

latest as (

    select *
    from post_metrics
    qualify snapshot_date = max(snapshot_date) over (partition by segment)

)

select * from latest
