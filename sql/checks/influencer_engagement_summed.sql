-- influencer_engagement_summed: an influencer's `campaign_metrics.engagement` is the sum of
-- the `engagement` of the influencer's posts on the campaign.
-- Rule: api-v3.md, "Influencer campaign_metrics object": engagement is the "Total
-- engagement across the influencer's campaign posts" (same filters as the posts).
-- Level: influencer (entity_id the influencer). Exact: counts. Every segment.
-- Not compared: a NULL engagement, or an influencer with a post whose engagement is NULL.
select
    segment,
    campaign_id,
    influencer_id as entity_id,
    posts_engagement::double as expected,
    engagement::double as actual,
    case when posts_engagement_complete then engagement = posts_engagement end as ok
from check_influencers
