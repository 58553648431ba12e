-- latest_influencer_tag_assignments: rows of influencer_tag_assignments at its latest snapshot_date (this table is fetched from the
-- unfiltered view only, so it has no segment).
-- Columns, as in influencer_tag_assignments: snapshot_date, campaign_id, influencer_id, tag_id.
-- Reach figures are passed through at the level they were fetched, never summed
-- (spec, rules on reach 1 to 4).

with

influencer_tag_assignments as (

    select * from main.influencer_tag_assignments

),

latest as (

    select *
    from influencer_tag_assignments
    qualify snapshot_date = max(snapshot_date) over ()

)

select * from latest
