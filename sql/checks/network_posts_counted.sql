-- network_posts_counted: each network's `num_posts` in a campaign's `sources` is the number
-- of the campaign's posts on that network; a network with posts but no `sources` entry
-- reports 0 (actual 0).
-- Rule: api-v3.md, "Each entry of sources": num_posts is the "Posts for the campaign on
-- this network"; "Only networks on which the campaign has posts appear under sources";
-- "Post metrics" / api-profile.md: each post names its `network`.
-- Level: network (entity_id the network's API name). Exact: counts.
-- Scope: every network without a `sources` filter; with one, the networks it names
-- (network_in_view). Not compared: a NULL num_posts.
with

networks as (

    select segment, campaign_id, network, num_posts
    from campaign_network_metrics

),

posts as (

    select segment, campaign_id, network, sum(posts) as posts
    from check_post_totals
    where network is not null
    group by all

),

compared as (

    select
        coalesce(n.segment, p.segment) as segment,
        coalesce(n.campaign_id, p.campaign_id) as campaign_id,
        coalesce(n.network, p.network) as network,
        coalesce(p.posts, 0) as expected,
        case when n.campaign_id is null then 0 else n.num_posts end as actual
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
    c.actual = c.expected as ok
from compared as c
join check_segments as s on s.segment = c.segment
where network_in_view(s.sources, c.network)
