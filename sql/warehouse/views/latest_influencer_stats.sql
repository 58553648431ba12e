-- latest_influencer_stats: rows of influencer_stats at the latest snapshot_date of each segment (a segment
-- not synced lately keeps showing its last complete day).
-- Columns, as in influencer_stats: snapshot_date, segment, campaign_id, influencer_id, stat, value.
-- Reach figures are passed through at the level they were fetched, never summed
-- (spec, rules on reach 1 to 4).

with

influencer_stats as (

    select * from main.influencer_stats

),

latest as (

    select *
    from influencer_stats
    qualify snapshot_date = max(snapshot_date) over (partition by segment)

)

select * from latest
