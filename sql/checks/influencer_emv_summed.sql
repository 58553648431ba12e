-- influencer_emv_summed: an influencer's `campaign_metrics.emv` is the sum of the `emv` of
-- the influencer's posts on the campaign.
-- Rule: api-v3.md, "Influencer campaign_metrics object": emv is the "Total earned media
-- value across those posts" (the influencer's campaign posts; same filters as the posts).
-- Level: influencer (entity_id the influencer). Money: within half a cent per post
-- (money_agrees). Every segment. Not compared: a NULL emv, or an influencer with a post
-- whose emv is NULL.
select
    segment,
    campaign_id,
    influencer_id as entity_id,
    posts_emv as expected,
    emv as actual,
    case when posts_emv_complete then money_agrees(posts_emv, emv, posts) end as ok
from check_influencers
