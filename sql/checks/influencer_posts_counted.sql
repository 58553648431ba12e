-- influencer_posts_counted: an influencer's `campaign_metrics.num_posts` is the number of
-- the campaign's posts whose `influencer_id` is that influencer.
-- Rule: api-v3.md, "Influencer campaign_metrics object": num_posts is the "Posts created by
-- the influencer for the campaign", and the figures "respect the sources and tags filters
-- of the request", as the posts do; "Post metrics": influencer_id joins "the post to the
-- influencer record in the campaign influencers response".
-- Level: influencer (entity_id the influencer). Exact: counts. Every segment (both
-- endpoints take both filters). Not compared: a NULL num_posts.
select
    segment,
    campaign_id,
    influencer_id as entity_id,
    posts::double as expected,
    num_posts::double as actual,
    num_posts = posts as ok
from check_influencers
