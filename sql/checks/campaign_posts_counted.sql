-- campaign_posts_counted: a campaign's `metrics.num_posts` is the number of its posts.
-- Rule: api-v3.md, "Campaign metrics object": num_posts is the "Number of posts created
-- by influencers for the campaign"; the posts endpoint returns "The campaign's posts".
-- Level: campaign (entity_id NULL). Exact: a count.
-- Scope: segments without a `sources` filter (the filter does not apply to the campaign
-- detail: api-v3.md, "Filters"). Not compared: a NULL num_posts.
select
    segment,
    campaign_id,
    null::varchar as entity_id,
    posts::double as expected,
    num_posts::double as actual,
    num_posts = posts as ok
from check_campaigns
