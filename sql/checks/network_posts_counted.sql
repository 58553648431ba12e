-- network_posts_counted: each network's `num_posts` in a campaign's `sources` is the number
-- of the campaign's posts on that network; a network with posts but no `sources` entry
-- reports 0 (actual 0).
-- Rule: api-v3.md, "Each entry of sources": num_posts is the "Posts for the campaign on
-- this network"; "Only networks on which the campaign has posts appear under sources";
-- "Post metrics" / api-profile.md: each post names its `network`.
-- Level: network (entity_id the network's API name). Exact: counts.
-- Scope: every network without a `sources` filter; with one, the networks it names
-- (network_in_view). Not compared: a NULL num_posts.
select
    segment,
    campaign_id,
    network as entity_id,
    posts::double as expected,
    num_posts::double as actual,
    num_posts = posts as ok
from check_networks
