-- latest_influencer_network_profiles: rows of influencer_network_profiles at its latest snapshot_date (this table is fetched from the
-- unfiltered view only, so it has no segment).
-- Columns, as in influencer_network_profiles: snapshot_date, influencer_id, network; profile_id, username, followers, engagement_per_post, true_reach.
-- Reach figures are passed through at the level they were fetched, never summed
-- (spec, rules on reach 1 to 4).

with

influencer_network_profiles as (

    select * from main.influencer_network_profiles

),

latest as (

    select *
    from influencer_network_profiles
    qualify snapshot_date = max(snapshot_date) over ()

)

select * from latest
