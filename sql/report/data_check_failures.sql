-- data_check_failures: the first $top disagreements the rule checks found at $snapshot in
-- $segment, for the campaigns in scope ($campaigns, a JSON array; [] for all). Needs the
-- data_check_failures view.
-- Columns: check_name, campaign_id, entity_id, expected, actual

with

data_check_failures as (

    select check_name, campaign_id, entity_id, expected, actual
    from main.data_check_failures
    where snapshot_date = $snapshot and segment = $segment and kind = 'rule'
        and ($campaigns = '[]' or list_contains(cast($campaigns::json as varchar[]), campaign_id))

)

select * from data_check_failures order by check_name, campaign_id, entity_id limit $top
