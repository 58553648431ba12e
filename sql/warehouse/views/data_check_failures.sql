-- data_check_failures: one row per disagreement a data check found (see data_checks).
-- Columns:
--   key: snapshot_date, segment, check_name, campaign_id, entity_id
--   entity_id: the network (API name), influencer or post concerned; NULL for a
--     campaign-level check (campaign_*, network_*_add_up)
--   expected: what the other level's figures imply (the sum or count over posts, the sum
--     over networks; for a range check, the bound crossed)
--   actual: the figure as the API reported it
-- Money is compared within half a cent per rounded part, rates within 0.5%: a row here
-- is beyond rounding.

with

check_failures as (

    select * from main.check_failures

),

failures as (

    select snapshot_date, segment, check_name, campaign_id, entity_id, expected, actual
    from check_failures

)

select * from failures
