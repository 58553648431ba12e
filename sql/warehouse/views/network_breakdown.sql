-- network_breakdown: per campaign, segment and snapshot_date, each network's figures and
-- its share of the campaign's posts, engagement and EMV.
-- Columns (key: snapshot_date, segment, campaign_id, network):
--   campaign_name: the campaign's name
--   reach: the reach of the campaign posts on this network; never add it across networks
--   share_of_posts: the network's share (0..1) of the campaign's posts, over the sum of the
--     campaign's networks (the shares of one campaign add up to 1); NULL when that is 0
--   share_of_engagement: the network's share (0..1) of the campaign's engagement, over the sum
--     of the campaign's networks (the shares of one campaign add up to 1); NULL when that is 0
--   share_of_emv: the network's share (0..1) of the campaign's EMV, over the sum of the
--     campaign's networks (the shares of one campaign add up to 1); NULL when that is 0
--   campaign_total_reach: the campaign-level total_reach as fetched, for context (not a sum)
-- Reach has no share: posts, engagement and EMV add up across networks, reach does not
-- (one person reached on two networks counts once in the campaign's total_reach: rules on
-- reach 1 and 4), so a reach share or a summed reach would be wrong. num_influencers is
-- not shared either (an influencer can post on several networks).
-- The campaign totals come with each campaign_network_metrics row (migration 005), so each
-- row's shares are computed from that row alone: a filter on snapshot_date, even
-- `= (select max(snapshot_date) ...)`, skips the other dates' rows before any work, where a
-- window over the campaign's networks read every date of the table first.

with

campaign_network_metrics as (

    select * from main.campaign_network_metrics

),

campaigns as (

    select * from main.campaigns

),

breakdown as (

    select
        n.snapshot_date,
        n.segment,
        n.campaign_id,
        c.name as campaign_name,
        n.network,
        n.num_posts,
        n.num_influencers,
        n.engagement,
        n.engagement_rate,
        n.reach,
        n.emv,
        n.num_posts / nullif(n.campaign_posts, 0) as share_of_posts,
        n.engagement / nullif(n.campaign_engagement, 0) as share_of_engagement,
        n.emv / nullif(n.campaign_emv, 0) as share_of_emv,
        n.campaign_total_reach
    from campaign_network_metrics as n
    left join campaigns as c
        on c.campaign_id = n.campaign_id

)

select * from breakdown
