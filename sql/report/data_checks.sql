-- data_checks: every check of the latest checked snapshot of $segment (the latest run of
-- that date, when it was checked twice): the rule checks and the history checks, failing
-- first, rule before history. Needs the data_checks view (with its kind column). What the
-- failing history checks found is the "what changed" section's (history_check_failures.sql).
-- Columns: snapshot_date, run_id, check_name, kind, status, checked, failing, compared_with

with

data_checks as (

    select * from main.data_checks where segment = $segment

),

sync_runs as (

    select run_id, started_at from main.sync_runs

),

latest as (

    select c.snapshot_date, c.run_id, c.check_name, c.kind, c.status, c.checked, c.failing,
        c.compared_with
    from data_checks as c
    left join sync_runs as r using (run_id)
    qualify dense_rank() over (order by c.snapshot_date desc, r.started_at desc nulls last, c.run_id desc) = 1

)

select * from latest order by failing desc nulls last, kind desc, check_name
