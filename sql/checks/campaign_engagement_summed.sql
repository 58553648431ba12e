-- campaign_engagement_summed: a campaign's `metrics.total_engagement` is the sum of its
-- posts' `engagement`.
-- Rule: api-v3.md, "Campaign metrics object": total_engagement is the "Total engagements
-- across all campaign posts"; "Post metrics": engagement is the "Total engagement on the post".
-- Level: campaign (entity_id NULL). Exact: a count.
-- Scope: segments without a `sources` filter (api-v3.md, "Filters"). Not compared: a NULL
-- total, or a campaign with a post whose engagement is NULL.
with

campaigns as (

    select m.segment, m.campaign_id, m.total_engagement
    from campaign_metrics as m
    join check_segments as s on s.segment = m.segment
    where s.sources is null

),

posts as (

    select
        segment,
        campaign_id,
        sum(posts) as posts,
        sum(engagement) as engagement,
        sum(engagement_known) as engagement_known
    from check_post_totals
    group by all

)

select
    c.segment,
    c.campaign_id,
    null::varchar as entity_id,
    coalesce(p.engagement, 0)::double as expected,
    c.total_engagement::double as actual,
    case
        when coalesce(p.engagement_known, 0) = coalesce(p.posts, 0)
            then c.total_engagement = coalesce(p.engagement, 0)
    end as ok
from campaigns as c
left join posts as p on p.segment = c.segment and p.campaign_id = c.campaign_id
