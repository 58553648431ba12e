-- latest_influencer_profiles: rows of influencer_profiles at its latest snapshot_date (this table is fetched from the
-- unfiltered view only, so it has no segment).
-- Columns, as in influencer_profiles: snapshot_date, influencer_id; influence, brand_score, true_reach (whole audience), followers.
-- Reach figures are passed through at the level they were fetched, never summed
-- (spec, rules on reach 1 to 4).

with

latest as (

    -- lake_latest.influencer_profiles holds only the latest snapshot of each segment (kept up to date by
    -- each publish), so this reads one day's files rather than the whole history.
    select * from lake_latest.influencer_profiles

)

select * from latest
