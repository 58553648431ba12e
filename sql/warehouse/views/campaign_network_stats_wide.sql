-- campaign_network_stats_wide: the statistics of campaign_network_stats pivoted to one row per
-- (snapshot_date, segment, campaign_id, network), one column per statistic of the spec's
-- stat table. A statistic a network does not report is NULL (e.g. no `saved` on tiktok);
-- statistics the spec does not list stay in campaign_network_stats (long form).
-- Columns (key: snapshot_date, segment, campaign_id, network):
--   comments: comments on the campaign posts on this network (NULL where it reports none)
--   likes: likes of the campaign posts on this network (NULL where it reports none)
--   saved: saves of the campaign posts on this network (instagram only)
--   views: views of the campaign posts on this network (instagram, tiktok)
--   shares: shares of the campaign posts on this network (tiktok only)
--   impressions: displays of the campaign posts on this network (instagram, stories)
--   stats_reach: the stats object's `reach`, a different measure from
--     campaign_network_metrics.reach (rule on reach 2, hence the distinct name)
--   exits: exits from the campaign's stories (instagram_stories only)
--   replies: replies to the campaign's stories (instagram_stories only)
--   taps_back: taps back on the campaign's stories (instagram_stories only)
--   taps_forward: taps forward on the campaign's stories (instagram_stories only)
-- Nothing here is summed across networks: each row is one network's own totals, and
-- campaign reach is not the sum of network reach (rules on reach 1 and 4).

with

campaign_network_stats as (

    select * from main.campaign_network_stats

),

wide as (

    select
        snapshot_date,
        segment,
        campaign_id,
        network,
        max(value) filter (where stat = 'comments') as comments,
        max(value) filter (where stat = 'likes') as likes,
        max(value) filter (where stat = 'saved') as saved,
        max(value) filter (where stat = 'views') as views,
        max(value) filter (where stat = 'shares') as shares,
        max(value) filter (where stat = 'impressions') as impressions,
        max(value) filter (where stat = 'reach') as stats_reach,
        max(value) filter (where stat = 'exits') as exits,
        max(value) filter (where stat = 'replies') as replies,
        max(value) filter (where stat = 'taps_back') as taps_back,
        max(value) filter (where stat = 'taps_forward') as taps_forward
    from campaign_network_stats
    group by snapshot_date, segment, campaign_id, network

)

select * from wide
