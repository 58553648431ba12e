-- influencer_engagement_summed: an influencer's `campaign_metrics.engagement` is the sum of
-- the `engagement` of the influencer's posts on the campaign.
-- Rule: api-v3.md, "Influencer campaign_metrics object": engagement is the "Total
-- engagement across the influencer's campaign posts" (same filters as the posts).
-- Level: influencer (entity_id the influencer). Exact: counts. Every segment.
-- Not compared: a NULL engagement, or an influencer with a post whose engagement is NULL.
with

posts as (

    select
        segment,
        campaign_id,
        influencer_id,
        sum(posts) as posts,
        sum(engagement) as engagement,
        sum(engagement_known) as engagement_known
    from check_post_totals
    group by all

)

select
    i.segment,
    i.campaign_id,
    i.influencer_id as entity_id,
    coalesce(p.engagement, 0)::double as expected,
    i.engagement::double as actual,
    case
        when coalesce(p.engagement_known, 0) = coalesce(p.posts, 0)
            then i.engagement = coalesce(p.engagement, 0)
    end as ok
from influencer_campaign_metrics as i
left join posts as p
    on p.segment = i.segment and p.campaign_id = i.campaign_id and p.influencer_id = i.influencer_id
