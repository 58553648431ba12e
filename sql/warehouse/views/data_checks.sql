-- data_checks: one row per data check that ran after a sync, per snapshot_date and
-- segment, passed or not (the checks: sql/checks/, one file per rule of api-v3.md).
-- Columns:
--   key: snapshot_date, segment, check_name
--   run_id: the sync run that fetched and checked the figures
--   status: 'passed', 'failed', or 'skipped' (nothing comparable, e.g. every figure NULL)
--   checked: comparisons made (campaigns, networks, influencers or posts, by check)
--   failing: comparisons that disagreed, each a row of data_check_failures
-- A failing check warns by default (the run publishes); `sync --strict` (or "checks":
-- "strict" in the config file) fails the run before its publish instead, so a failed
-- check of a strict run is never here. No check reads reach (rules on reach 1 to 4).

with

check_results as (

    select * from main.check_results

),

checks as (

    select snapshot_date, segment, run_id, check_name, status, checked, failing
    from check_results

)

select * from checks
