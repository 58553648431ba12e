-- influencer_leaderboard: influencers ranked within each campaign at the latest snapshot
-- of the unfiltered segment ('all'), with their campaign-independent profile figures.
-- Columns:
--   key: snapshot_date, campaign_id, campaign_name, influencer_id, influencer_name
--   ranks (1 = best, ties share a rank): engagement_rank, emv_rank
--   campaign figures: num_posts, engagement, engagement_rate, emv, budget,
--     campaign_reach (reach of the campaign posts only)
--   profile figures (same snapshot_date): influence, brand_score, followers,
--     profile_true_reach (the whole audience); read from the profiles' latest snapshot,
--     so NULL should the profiles' latest snapshot not be the leaderboard's (every sync
--     writes both for the same date)
-- The two reach columns are different measures (rule on reach 3) and are shown side by
-- side, never added; ranks use engagement and EMV, which are additive, not reach.

with

latest_influencer_campaign_metrics as (

    -- the latest snapshot of each segment, kept by each publish (not a scan of the history)
    select * from lake_latest.influencer_campaign_metrics

),

influencer_profiles as (

    -- the latest snapshot too: the view's cost stays flat however long the history
    select * from lake_latest.influencer_profiles

),

campaigns as (

    select * from main.campaigns

),

influencers as (

    select * from main.influencers

),

latest_all as (

    select *
    from latest_influencer_campaign_metrics
    where segment = 'all'

),

ranked as (

    select
        m.snapshot_date,
        m.campaign_id,
        c.name as campaign_name,
        m.influencer_id,
        i.name as influencer_name,
        rank() over (partition by m.campaign_id order by m.engagement desc nulls last) as engagement_rank,
        rank() over (partition by m.campaign_id order by m.emv desc nulls last) as emv_rank,
        m.num_posts,
        m.engagement,
        m.engagement_rate,
        m.emv,
        m.budget,
        m.reach as campaign_reach,
        p.influence,
        p.brand_score,
        p.followers,
        p.true_reach as profile_true_reach
    from latest_all as m
    left join influencer_profiles as p
        on p.snapshot_date = m.snapshot_date
        and p.influencer_id = m.influencer_id
    left join campaigns as c
        on c.campaign_id = m.campaign_id
    left join influencers as i
        on i.influencer_id = m.influencer_id

)

select * from ranked
