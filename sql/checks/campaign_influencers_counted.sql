-- campaign_influencers_counted: a campaign's `metrics.num_influencers` lies between the
-- number of distinct influencers among its posts and the number of influencers the
-- influencers endpoint lists for it.
-- Rule: api-v3.md, "Campaign metrics object": num_influencers is the "Number of influencers
-- associated with the campaign"; every influencer who created a campaign post is
-- associated with it, and the influencers endpoint returns "The campaign's influencers".
-- The spec does not say whether an influencer listed without posts counts (the simulator
-- does not count one), so the rule is the range both readings satisfy, not an equality.
-- Level: campaign (entity_id NULL). Exact: counts. `expected` is the bound crossed.
-- Scope: segments without a `sources` filter (api-v3.md, "Filters"). Not compared: a NULL count.
with

campaigns as (

    select m.segment, m.campaign_id, m.num_influencers
    from campaign_metrics as m
    join check_segments as s on s.segment = m.segment
    where s.sources is null

),

posting as (

    select segment, campaign_id, count(distinct influencer_id) as influencers
    from check_post_totals
    group by all

),

listed as (

    select segment, campaign_id, count(distinct influencer_id) as influencers
    from influencer_campaign_metrics
    group by all

),

bounds as (

    select
        c.*,
        coalesce(p.influencers, 0) as at_least,
        coalesce(l.influencers, 0) as at_most
    from campaigns as c
    left join posting as p on p.segment = c.segment and p.campaign_id = c.campaign_id
    left join listed as l on l.segment = c.segment and l.campaign_id = c.campaign_id

)

select
    segment,
    campaign_id,
    null::varchar as entity_id,
    case when num_influencers < at_least then at_least when num_influencers > at_most then at_most
        else num_influencers end::double as expected,
    num_influencers::double as actual,
    num_influencers between at_least and at_most as ok
from bounds
