-- latest_influencer_profiles: rows of influencer_profiles at its latest snapshot_date (this table is fetched from the
-- unfiltered view only, so it has no segment).
-- Columns, as in influencer_profiles: snapshot_date, influencer_id; influence, brand_score, true_reach (whole audience), followers.
-- Reach figures are passed through at the level they were fetched, never summed
-- (spec, rules on reach 1 to 4).

with

influencer_profiles as (

    select * from main.influencer_profiles

),

latest as (

    select *
    from influencer_profiles
    qualify snapshot_date = max(snapshot_date) over ()

)

select * from latest
