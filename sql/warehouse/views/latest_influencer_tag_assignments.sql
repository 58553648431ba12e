-- latest_influencer_tag_assignments: rows of influencer_tag_assignments at its latest snapshot_date (this table is fetched from the
-- unfiltered view only, so it has no segment).
-- Columns, as in influencer_tag_assignments: snapshot_date, campaign_id, influencer_id, tag_id.
-- Reach figures are passed through at the level they were fetched, never summed
-- (spec, rules on reach 1 to 4).

with

latest as (

    -- lake_latest.influencer_tag_assignments holds only the latest snapshot of each segment (kept up to date by
    -- each publish), so this reads one day's files rather than the whole history.
    select * from lake_latest.influencer_tag_assignments

)

select * from latest
