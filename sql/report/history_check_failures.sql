-- history_check_failures: what the failing history checks (data_checks.kind = 'history')
-- found at $to in $segment, for the campaigns in scope ($campaigns, a JSON array; [] for
-- all): the figure on the previous snapshot (before) and on $to (after). The first $top.
-- Needs the data_checks and data_check_failures views with their `kind` column.
-- Columns: check_name, campaign_id, entity_id, before, after, compared_with

with

checks as (

    select check_name, compared_with
    from main.data_checks
    where snapshot_date = $to and segment = $segment and kind = 'history'

),

failures as (

    select f.check_name, f.campaign_id, f.entity_id, f.expected as before, f.actual as after,
        c.compared_with
    from main.data_check_failures as f
    join checks as c using (check_name)
    where f.snapshot_date = $to and f.segment = $segment
        and ($campaigns = '[]' or list_contains(cast($campaigns::json as varchar[]), f.campaign_id))

)

select * from failures order by check_name, campaign_id, entity_id limit $top
