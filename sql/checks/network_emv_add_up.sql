-- network_emv_add_up: the networks' `emv` in a campaign's `sources` add up to the
-- campaign's `metrics.total_emv`.
-- Rule: api-v3.md, "Each entry of sources": emv is the "Total earned media value on this
-- network", the campaign's total_emv the "Total earned media value across all campaign
-- posts", and the networks partition the posts (see network_posts_add_up).
-- Level: campaign (entity_id NULL). Money: within half a cent per network (money_agrees).
-- Every segment (one response). Not compared: a NULL emv at either level.
with

networks as (

    select
        segment,
        campaign_id,
        count(*) as networks,
        sum(emv) as emv,
        count(emv) = count(*) as complete
    from campaign_network_metrics
    group by all

)

select
    m.segment,
    m.campaign_id,
    null::varchar as entity_id,
    coalesce(n.emv, 0) as expected,
    m.total_emv as actual,
    case
        when coalesce(n.complete, true)
            then money_agrees(coalesce(n.emv, 0), m.total_emv, coalesce(n.networks, 0))
    end as ok
from campaign_metrics as m
left join networks as n on n.segment = m.segment and n.campaign_id = m.campaign_id
