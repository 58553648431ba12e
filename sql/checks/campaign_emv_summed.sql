-- campaign_emv_summed: a campaign's `metrics.total_emv` is the sum of its posts' `emv`.
-- Rule: api-v3.md, "Campaign metrics object": total_emv is the "Total earned media value
-- across all campaign posts"; "Post metrics": emv is the value "attributed to the post".
-- Level: campaign (entity_id NULL). Money: within half a cent per post (money_agrees).
-- Scope: segments without a `sources` filter (api-v3.md, "Filters"). Not compared: a NULL
-- total, or a campaign with a post whose emv is NULL.
with

campaigns as (

    select m.segment, m.campaign_id, m.total_emv
    from campaign_metrics as m
    join check_segments as s on s.segment = m.segment
    where s.sources is null

),

posts as (

    select
        segment,
        campaign_id,
        sum(posts) as posts,
        sum(emv) as emv,
        sum(emv_known) as emv_known
    from check_post_totals
    group by all

)

select
    c.segment,
    c.campaign_id,
    null::varchar as entity_id,
    coalesce(p.emv, 0) as expected,
    c.total_emv as actual,
    case
        when coalesce(p.emv_known, 0) = coalesce(p.posts, 0)
            then money_agrees(coalesce(p.emv, 0), c.total_emv, coalesce(p.posts, 0))
    end as ok
from campaigns as c
left join posts as p on p.segment = c.segment and p.campaign_id = c.campaign_id
