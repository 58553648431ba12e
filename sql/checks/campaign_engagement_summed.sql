-- campaign_engagement_summed: a campaign's `metrics.total_engagement` is the sum of its
-- posts' `engagement`.
-- Rule: api-v3.md, "Campaign metrics object": total_engagement is the "Total engagements
-- across all campaign posts"; "Post metrics": engagement is the "Total engagement on the post".
-- Level: campaign (entity_id NULL). Exact: a count.
-- Scope: segments without a `sources` filter (api-v3.md, "Filters"). Not compared: a NULL
-- total, or a campaign with a post whose engagement is NULL.
select
    segment,
    campaign_id,
    null::varchar as entity_id,
    posts_engagement::double as expected,
    total_engagement::double as actual,
    case when posts_engagement_complete then total_engagement = posts_engagement end as ok
from check_campaigns
