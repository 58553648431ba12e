-- post_influencer_listed: a post's `influencer_id` is one of the influencers the campaign's
-- influencers endpoint lists (expected 1 listed record, actual 0 when missing).
-- Rule: api-v3.md, "Post metrics": influencer_id is the "Identifier joining the post to the
-- influencer record in the campaign influencers response" (same filters on both endpoints).
-- Level: post (entity_id the post). Every segment. Not compared: a post without influencer_id.
with

listed as (

    select distinct segment, campaign_id, influencer_id
    from influencer_campaign_metrics

)

select
    p.segment,
    p.campaign_id,
    p.post_id as entity_id,
    1::double as expected,
    (l.influencer_id is not null)::int::double as actual,
    l.influencer_id is not null as ok
from post_metrics as p
left join listed as l
    on l.segment = p.segment and l.campaign_id = p.campaign_id and l.influencer_id = p.influencer_id
where p.influencer_id is not null
