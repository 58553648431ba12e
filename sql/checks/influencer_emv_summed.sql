-- influencer_emv_summed: an influencer's `campaign_metrics.emv` is the sum of the `emv` of
-- the influencer's posts on the campaign.
-- Rule: api-v3.md, "Influencer campaign_metrics object": emv is the "Total earned media
-- value across those posts" (the influencer's campaign posts; same filters as the posts).
-- Level: influencer (entity_id the influencer). Money: within half a cent per post
-- (money_agrees). Every segment. Not compared: a NULL emv, or an influencer with a post
-- whose emv is NULL.
with

posts as (

    select
        segment,
        campaign_id,
        influencer_id,
        sum(posts) as posts,
        sum(emv) as emv,
        sum(emv_known) as emv_known
    from check_post_totals
    group by all

)

select
    i.segment,
    i.campaign_id,
    i.influencer_id as entity_id,
    coalesce(p.emv, 0) as expected,
    i.emv as actual,
    case
        when coalesce(p.emv_known, 0) = coalesce(p.posts, 0)
            then money_agrees(coalesce(p.emv, 0), i.emv, coalesce(p.posts, 0))
    end as ok
from influencer_campaign_metrics as i
left join posts as p
    on p.segment = i.segment and p.campaign_id = i.campaign_id and p.influencer_id = i.influencer_id
