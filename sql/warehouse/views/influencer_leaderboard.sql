-- influencer_leaderboard: influencers ranked within each campaign at the latest snapshot
-- of the unfiltered segment ('all'), with their campaign-independent profile figures.
-- Columns (key: snapshot_date, campaign_id, influencer_id):
--   snapshot_date: the latest snapshot of the unfiltered segment ('all')
--   campaign_name: the campaign's name
--   influencer_name: the influencer's name
--   engagement_rank: the influencer's rank by engagement within the campaign (1 = best,
--     ties share a rank)
--   emv_rank: the influencer's rank by EMV within the campaign (1 = best, ties share a rank)
--   budget: the budget assigned to the influencer for the campaign
--   campaign_reach: the reach of the influencer's campaign posts only
--   influence: the platform's influence score for the influencer (its profile at the same
--     snapshot_date: NULL should the profiles' latest snapshot not be the leaderboard's; every
--     sync writes both for the same date)
--   brand_score: the influencer's brand score as provided by the platform (its profile at the
--     same snapshot_date)
--   followers: the influencer's followers across its networks (its profile at the same
--     snapshot_date)
--   profile_true_reach: the influencer's true reach (the whole audience), at the same
--     snapshot_date; a different measure from campaign_reach
-- The two reach columns are different measures (rule on reach 3) and are shown side by
-- side, never added; ranks use engagement and EMV, which are additive, not reach.

with

latest_influencer_campaign_metrics as (

    -- the latest snapshot of each segment, kept by each publish (not a scan of the history)
    select * from main.latest_influencer_campaign_metrics

),

influencer_profiles as (

    -- the latest snapshot too: the view's cost stays flat however long the history
    select * from main.latest_influencer_profiles

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
