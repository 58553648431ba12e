-- influencer_posts_counted: an influencer's `campaign_metrics.num_posts` is the number of
-- the campaign's posts whose `influencer_id` is that influencer.
-- Rule: api-v3.md, "Influencer campaign_metrics object": num_posts is the "Posts created by
-- the influencer for the campaign", and the figures "respect the sources and tags filters
-- of the request", as the posts do; "Post metrics": influencer_id joins "the post to the
-- influencer record in the campaign influencers response".
-- Level: influencer (entity_id the influencer). Exact: counts. Every segment (both
-- endpoints take both filters). Not compared: a NULL num_posts.
with

posts as (

    select segment, campaign_id, influencer_id, sum(posts) as posts
    from check_post_totals
    group by all

)

select
    i.segment,
    i.campaign_id,
    i.influencer_id as entity_id,
    coalesce(p.posts, 0)::double as expected,
    i.num_posts::double as actual,
    i.num_posts = coalesce(p.posts, 0) as ok
from influencer_campaign_metrics as i
left join posts as p
    on p.segment = i.segment and p.campaign_id = i.campaign_id and p.influencer_id = i.influencer_id
