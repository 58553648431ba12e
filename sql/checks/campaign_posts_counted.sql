-- campaign_posts_counted: a campaign's `metrics.num_posts` is the number of its posts.
-- Rule: api-v3.md, "Campaign metrics object": num_posts is the "Number of posts created
-- by influencers for the campaign"; the posts endpoint returns "The campaign's posts".
-- Level: campaign (entity_id NULL). Exact: a count.
-- Scope: segments without a `sources` filter (the filter does not apply to the campaign
-- detail: api-v3.md, "Filters"). Not compared: a NULL num_posts.
with

campaigns as (

    select m.segment, m.campaign_id, m.num_posts
    from campaign_metrics as m
    join check_segments as s on s.segment = m.segment
    where s.sources is null

),

posts as (

    select segment, campaign_id, sum(posts) as posts
    from check_post_totals
    group by all

)

select
    c.segment,
    c.campaign_id,
    null::varchar as entity_id,
    coalesce(p.posts, 0)::double as expected,
    c.num_posts::double as actual,
    c.num_posts = coalesce(p.posts, 0) as ok
from campaigns as c
left join posts as p on p.segment = c.segment and p.campaign_id = c.campaign_id
