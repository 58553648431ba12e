-- latest_post_stats: rows of post_stats at the latest snapshot_date of each segment (a segment
-- not synced lately keeps showing its last complete day).
-- Columns, as in post_stats: snapshot_date, segment, campaign_id, post_id, stat, value.
-- Reach figures are passed through at the level they were fetched, never summed
-- (spec, rules on reach 1 to 4).

with

post_stats as (

    select * from main.post_stats

),

latest as (

    select *
    from post_stats
    qualify snapshot_date = max(snapshot_date) over (partition by segment)

)

select * from latest
