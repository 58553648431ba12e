-- network_engagement_summed: each network's `engagement` in a campaign's `sources` is the
-- sum of the `engagement` of the campaign's posts on that network (0 without an entry).
-- Rule: api-v3.md, "Each entry of sources": engagement is the "Total engagement of
-- campaign posts on this network"; "Post metrics": the "Total engagement on the post".
-- Level: network (entity_id the network). Exact: counts.
-- Scope: as network_posts_counted. Not compared: a NULL engagement, or a network with a
-- post whose engagement is NULL.
select
    segment,
    campaign_id,
    network as entity_id,
    posts_engagement::double as expected,
    engagement::double as actual,
    case when posts_engagement_complete then engagement = posts_engagement end as ok
from check_networks
