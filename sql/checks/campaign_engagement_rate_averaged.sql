-- campaign_engagement_rate_averaged: a campaign's `metrics.engagement_rate` is the average
-- of its networks' `engagement_rate`, weighted by their `num_posts`.
-- Rule: api-v3.md, "Campaign metrics object": engagement_rate is the "Average engagement
-- rate of campaign posts"; "Each entry of sources": the "Average engagement rate of
-- campaign posts on this network"; the networks partition the posts (network_posts_add_up),
-- so the post-weighted mean of the networks' averages is the campaign's average.
-- Level: campaign (entity_id NULL). Rate: within 0.5% (rate_agrees).
-- Every segment (one response). Not compared: a NULL campaign rate, a network with posts
-- and a NULL rate or count, or a campaign without posts.
with

networks as (

    select
        segment,
        campaign_id,
        sum(num_posts * engagement_rate) / nullif(sum(num_posts), 0) as weighted_rate,
        bool_and(num_posts is not null and (num_posts = 0 or engagement_rate is not null)) as complete
    from campaign_network_metrics
    group by all

)

select
    m.segment,
    m.campaign_id,
    null::varchar as entity_id,
    n.weighted_rate as expected,
    m.engagement_rate as actual,
    case when n.complete then rate_agrees(n.weighted_rate, m.engagement_rate) end as ok
from campaign_metrics as m
join networks as n on n.segment = m.segment and n.campaign_id = m.campaign_id
