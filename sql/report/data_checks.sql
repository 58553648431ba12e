-- data_checks: the rule checks of the latest checked snapshot of $segment (the latest run
-- of that date, when it was checked twice), failing first. Needs the data_checks view. The
-- history checks are the "what changed" section's (history_check_failures.sql).
-- Columns: snapshot_date, run_id, check_name, status, checked, failing

with

data_checks as (

    select * from main.data_checks where segment = $segment and kind = 'rule'

),

sync_runs as (

    select run_id, started_at from main.sync_runs

),

latest as (

    select c.snapshot_date, c.run_id, c.check_name, c.status, c.checked, c.failing
    from data_checks as c
    left join sync_runs as r using (run_id)
    qualify dense_rank() over (order by c.snapshot_date desc, r.started_at desc nulls last, c.run_id desc) = 1

)

select * from latest order by failing desc nulls last, check_name
