-- data_check_failures: one row per disagreement a data check found (see data_checks).
-- Columns (key: snapshot_date, segment, check_name, campaign_id, entity_id):
--   kind: 'rule' or 'history' (see data_checks)
--   entity_id: the network (API name), influencer or post concerned; NULL for a
--     campaign-level check (campaign_*, network_*_add_up)
--   expected: rule checks: what the other level's figures imply (the sum or count over
--     posts, the sum over networks; for a range check, the bound crossed); history checks:
--     the figure on the previous snapshot (compared_with)
--   actual: rule checks: the figure as the API reported it; history checks: the figure on
--     this snapshot (NULL for a post or network that vanished)
--   compared_with: history checks: the previous snapshot compared with
-- Money is compared within half a cent per rounded part, rates within 0.5%: a row of a rule
-- check is beyond rounding.

with

check_failures as (

    select * from main.check_failures

),

check_results as (

    select * from main.check_results

),

failures as (

    select
        f.snapshot_date,
        f.segment,
        f.check_name,
        coalesce(r.kind, 'rule') as kind,
        f.campaign_id,
        f.entity_id,
        f.expected,
        f.actual,
        r.compared_with
    from check_failures as f
    left join check_results as r
        on r.snapshot_date = f.snapshot_date and r.segment = f.segment and r.check_name = f.check_name

)

select * from failures
