-- network_engagement_summed: each network's `engagement` in a campaign's `sources` is the
-- sum of the `engagement` of the campaign's posts on that network (0 without an entry).
-- Rule: api-v3.md, "Each entry of sources": engagement is the "Total engagement of
-- campaign posts on this network"; "Post metrics": the "Total engagement on the post".
-- Level: network (entity_id the network). Exact: counts.
-- Scope: as network_posts_counted. Not compared: a NULL engagement, or a network with a
-- post whose engagement is NULL.
with

networks as (

    select segment, campaign_id, network, engagement
    from campaign_network_metrics

),

posts as (

    select
        segment,
        campaign_id,
        network,
        sum(posts) as posts,
        sum(engagement) as engagement,
        sum(engagement_known) as engagement_known
    from check_post_totals
    where network is not null
    group by all

),

compared as (

    select
        coalesce(n.segment, p.segment) as segment,
        coalesce(n.campaign_id, p.campaign_id) as campaign_id,
        coalesce(n.network, p.network) as network,
        coalesce(p.engagement, 0) as expected,
        case when n.campaign_id is null then 0 else n.engagement end as actual,
        coalesce(p.engagement_known, 0) = coalesce(p.posts, 0) as complete
    from networks as n
    full join posts as p
        on p.segment = n.segment and p.campaign_id = n.campaign_id and p.network = n.network

)

select
    c.segment,
    c.campaign_id,
    c.network as entity_id,
    c.expected::double as expected,
    c.actual::double as actual,
    case when c.complete then c.actual = c.expected end as ok
from compared as c
join check_segments as s on s.segment = c.segment
where network_in_view(s.sources, c.network)
