-- top_influencers: the $top influencers by engagement at $to in $segment, over the
-- campaigns in scope ($campaigns, a JSON array; [] for all). Posts, engagement and EMV
-- add up across an influencer's campaigns; followers is the influencer's own profile
-- figure at $to (not summed, not reach).
-- Columns: influencer_id, influencer (name), campaigns, posts, engagement, emv, followers

with

influencer_campaign_metrics as (

    select campaign_id, influencer_id, num_posts, engagement, emv
    from main.influencer_campaign_metrics
    where snapshot_date = $to and segment = $segment
        and ($campaigns = '[]' or list_contains(cast($campaigns::json as varchar[]), campaign_id))

),

influencer_profiles as (

    select influencer_id, followers
    from main.influencer_profiles
    where snapshot_date = $to

),

influencers as (

    select influencer_id, name from main.influencers

),

per_influencer as (

    select
        influencer_id,
        count(*) as campaigns,
        sum(num_posts) as posts,
        sum(engagement) as engagement,
        sum(emv) as emv
    from influencer_campaign_metrics
    group by influencer_id
    order by engagement desc nulls last, influencer_id
    limit $top

),

named as (

    select
        m.influencer_id,
        coalesce(i.name, m.influencer_id) as influencer,
        m.campaigns,
        m.posts,
        m.engagement,
        m.emv,
        p.followers
    from per_influencer as m
    left join influencers as i using (influencer_id)
    left join influencer_profiles as p using (influencer_id)

)

select * from named order by engagement desc nulls last, influencer_id
