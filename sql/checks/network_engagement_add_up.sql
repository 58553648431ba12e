-- network_engagement_add_up: the networks' `engagement` in a campaign's `sources` add up to
-- the campaign's `metrics.total_engagement`.
-- Rule: api-v3.md, "Each entry of sources": engagement is the "Total engagement of campaign
-- posts on this network", the campaign's total_engagement the "Total engagements across
-- all campaign posts", and the networks partition the posts (see network_posts_add_up).
-- Level: campaign (entity_id NULL). Exact: counts. Every segment (one response).
-- Not compared: a NULL engagement at either level.
with

networks as (

    select
        segment,
        campaign_id,
        sum(engagement) as engagement,
        count(engagement) = count(*) as complete
    from campaign_network_metrics
    group by all

)

select
    m.segment,
    m.campaign_id,
    null::varchar as entity_id,
    coalesce(n.engagement, 0)::double as expected,
    m.total_engagement::double as actual,
    case when coalesce(n.complete, true) then m.total_engagement = coalesce(n.engagement, 0) end as ok
from campaign_metrics as m
left join networks as n on n.segment = m.segment and n.campaign_id = m.campaign_id
