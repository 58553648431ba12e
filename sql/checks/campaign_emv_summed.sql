-- campaign_emv_summed: a campaign's `metrics.total_emv` is the sum of its posts' `emv`.
-- Rule: api-v3.md, "Campaign metrics object": total_emv is the "Total earned media value
-- across all campaign posts"; "Post metrics": emv is the value "attributed to the post".
-- Level: campaign (entity_id NULL). Money: within half a cent per post (money_agrees).
-- Scope: segments without a `sources` filter (api-v3.md, "Filters"). Not compared: a NULL
-- total, or a campaign with a post whose emv is NULL.
select
    segment,
    campaign_id,
    null::varchar as entity_id,
    posts_emv as expected,
    total_emv as actual,
    case when posts_emv_complete then money_agrees(posts_emv, total_emv, posts) end as ok
from check_campaigns
