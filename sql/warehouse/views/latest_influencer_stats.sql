-- latest_influencer_stats: rows of influencer_stats at the latest snapshot_date of each segment (a segment
-- not synced lately keeps showing its last complete day).
-- Columns, as in influencer_stats: snapshot_date, segment, campaign_id, influencer_id, stat, value.
-- Reach figures are passed through at the level they were fetched, never summed
-- (spec, rules on reach 1 to 4).

with

latest as (

    -- lake_latest.influencer_stats holds only the latest snapshot of each segment (kept up to date by
    -- each publish), so this reads one day's files rather than the whole history.
    select * from lake_latest.influencer_stats

)

select * from latest
