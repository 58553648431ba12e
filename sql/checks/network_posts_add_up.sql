-- network_posts_add_up: the networks' `num_posts` in a campaign's `sources` add up to the
-- campaign's `metrics.num_posts`.
-- Rule: api-v3.md, "Each entry of sources": num_posts is the "Posts for the campaign on
-- this network"; a post is on one network and "Only networks on which the campaign has
-- posts appear under sources", so the entries partition the campaign's posts.
-- Level: campaign (entity_id NULL). Exact: counts. Both figures come from one response,
-- so every segment is checked. Not compared: a NULL num_posts at either level.
select
    segment,
    campaign_id,
    null::varchar as entity_id,
    networks_num_posts::double as expected,
    num_posts::double as actual,
    case when networks_num_posts_complete then num_posts = networks_num_posts end as ok
from check_detail
