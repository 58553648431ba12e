-- latest_post_stats: rows of post_stats at the latest snapshot_date of each segment (a segment
-- not synced lately keeps showing its last complete day).
-- Columns, as in post_stats: snapshot_date, segment, campaign_id, post_id, stat, value.
-- Reach figures are passed through at the level they were fetched, never summed
-- (spec, rules on reach 1 to 4).

with

latest as (

    -- lake_latest.post_stats holds only the latest snapshot of each segment (kept up to date by
    -- each publish), so this reads one day's files rather than the whole history.
    select * from lake_latest.post_stats

)

select * from latest
