-- network_engagement_add_up: the networks' `engagement` in a campaign's `sources` add up to
-- the campaign's `metrics.total_engagement`.
-- Rule: api-v3.md, "Each entry of sources": engagement is the "Total engagement of campaign
-- posts on this network", the campaign's total_engagement the "Total engagements across
-- all campaign posts", and the networks partition the posts (see network_posts_add_up).
-- Level: campaign (entity_id NULL). Exact: counts. Every segment (one response).
-- Not compared: a NULL engagement at either level.
select
    segment,
    campaign_id,
    null::varchar as entity_id,
    networks_engagement::double as expected,
    total_engagement::double as actual,
    case when networks_engagement_complete then total_engagement = networks_engagement end as ok
from check_detail
