-- campaign_engagement_rate_averaged: a campaign's `metrics.engagement_rate` is the average
-- of its networks' `engagement_rate`, weighted by their `num_posts`.
-- Rule: api-v3.md, "Campaign metrics object": engagement_rate is the "Average engagement
-- rate of campaign posts"; "Each entry of sources": the "Average engagement rate of
-- campaign posts on this network"; the networks partition the posts (network_posts_add_up),
-- so the post-weighted mean of the networks' averages is the campaign's average.
-- Level: campaign (entity_id NULL). Rate: within 0.5% (rate_agrees).
-- Every segment (one response). Not compared: a NULL campaign rate, a network with posts
-- and a NULL rate or count, or a campaign without posts.
select
    segment,
    campaign_id,
    null::varchar as entity_id,
    networks_weighted_rate as expected,
    engagement_rate as actual,
    case when networks_rate_complete then rate_agrees(networks_weighted_rate, engagement_rate) end as ok
from check_detail
