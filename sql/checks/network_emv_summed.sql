-- network_emv_summed: each network's `emv` in a campaign's `sources` is the sum of the
-- `emv` of the campaign's posts on that network (0 without an entry).
-- Rule: api-v3.md, "Each entry of sources": emv is the "Total earned media value on this
-- network"; "Post metrics": emv is the "Earned media value attributed to the post".
-- Level: network (entity_id the network). Money: within half a cent per post (money_agrees).
-- Scope: as network_posts_counted. Not compared: a NULL emv, or a network with a post
-- whose emv is NULL.
with

networks as (

    select segment, campaign_id, network, emv
    from campaign_network_metrics

),

posts as (

    select
        segment,
        campaign_id,
        network,
        sum(posts) as posts,
        sum(emv) as emv,
        sum(emv_known) as emv_known
    from check_post_totals
    where network is not null
    group by all

),

compared as (

    select
        coalesce(n.segment, p.segment) as segment,
        coalesce(n.campaign_id, p.campaign_id) as campaign_id,
        coalesce(n.network, p.network) as network,
        coalesce(p.emv, 0) as expected,
        case when n.campaign_id is null then 0 else n.emv end as actual,
        coalesce(p.posts, 0) as posts,
        coalesce(p.emv_known, 0) = coalesce(p.posts, 0) as complete
    from networks as n
    full join posts as p
        on p.segment = n.segment and p.campaign_id = n.campaign_id and p.network = n.network

)

select
    c.segment,
    c.campaign_id,
    c.network as entity_id,
    c.expected,
    c.actual,
    case when c.complete then money_agrees(c.expected, c.actual, c.posts) end as ok
from compared as c
join check_segments as s on s.segment = c.segment
where network_in_view(s.sources, c.network)
