-- network_emv_summed: each network's `emv` in a campaign's `sources` is the sum of the
-- `emv` of the campaign's posts on that network (0 without an entry).
-- Rule: api-v3.md, "Each entry of sources": emv is the "Total earned media value on this
-- network"; "Post metrics": emv is the "Earned media value attributed to the post".
-- Level: network (entity_id the network). Money: within half a cent per post (money_agrees).
-- Scope: as network_posts_counted. Not compared: a NULL emv, or a network with a post
-- whose emv is NULL.
select
    segment,
    campaign_id,
    network as entity_id,
    posts_emv as expected,
    emv as actual,
    case when posts_emv_complete then money_agrees(posts_emv, emv, posts) end as ok
from check_networks
