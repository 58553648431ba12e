-- latest_campaign_network_stats: rows of campaign_network_stats at the latest snapshot_date of each segment (a segment
-- not synced lately keeps showing its last complete day).
-- Columns, as in campaign_network_stats: snapshot_date, segment, campaign_id, network, stat, value (long form; see campaign_network_stats_wide).
-- Reach figures are passed through at the level they were fetched, never summed
-- (spec, rules on reach 1 to 4).

with

campaign_network_stats as (

    select * from main.campaign_network_stats

),

latest as (

    select *
    from campaign_network_stats
    qualify snapshot_date = max(snapshot_date) over (partition by segment)

)

select * from latest
