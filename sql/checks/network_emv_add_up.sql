-- network_emv_add_up: the networks' `emv` in a campaign's `sources` add up to the
-- campaign's `metrics.total_emv`.
-- Rule: api-v3.md, "Each entry of sources": emv is the "Total earned media value on this
-- network", the campaign's total_emv the "Total earned media value across all campaign
-- posts", and the networks partition the posts (see network_posts_add_up).
-- Level: campaign (entity_id NULL). Money: within half a cent per network (money_agrees).
-- Every segment (one response). Not compared: a NULL emv at either level.
select
    segment,
    campaign_id,
    null::varchar as entity_id,
    networks_emv as expected,
    total_emv as actual,
    case when networks_emv_complete then money_agrees(networks_emv, total_emv, networks) end as ok
from check_detail
