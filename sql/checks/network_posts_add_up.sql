-- network_posts_add_up: the networks' `num_posts` in a campaign's `sources` add up to the
-- campaign's `metrics.num_posts`.
-- Rule: api-v3.md, "Each entry of sources": num_posts is the "Posts for the campaign on
-- this network"; a post is on one network and "Only networks on which the campaign has
-- posts appear under sources", so the entries partition the campaign's posts.
-- Level: campaign (entity_id NULL). Exact: counts. Both figures come from one response,
-- so every segment is checked. Not compared: a NULL num_posts at either level.
with

networks as (

    select
        segment,
        campaign_id,
        sum(num_posts) as num_posts,
        count(num_posts) = count(*) as complete
    from campaign_network_metrics
    group by all

)

select
    m.segment,
    m.campaign_id,
    null::varchar as entity_id,
    coalesce(n.num_posts, 0)::double as expected,
    m.num_posts::double as actual,
    case when coalesce(n.complete, true) then m.num_posts = coalesce(n.num_posts, 0) end as ok
from campaign_metrics as m
left join networks as n on n.segment = m.segment and n.campaign_id = m.campaign_id
