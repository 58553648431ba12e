-- data_checks: one row per data check that ran after a sync, per snapshot_date and
-- segment, passed or not.
-- Columns (key: snapshot_date, segment, check_name):
--   run_id: the sync run that fetched and checked the figures
--   kind: 'rule' (sql/checks/: the figures of one snapshot against each other, one file per
--     rule of api-v3.md) or 'history' (sql/checks/history/: the snapshot against the
--     previous snapshots of the same segment)
--   status: 'passed', 'failed', or 'skipped' (nothing comparable, e.g. every figure NULL;
--     for a history check, no previous snapshot, or too few for the anomaly band)
--   checked: comparisons made (campaigns, networks, influencers or posts, by check)
--   failing: comparisons that disagreed, each a row of data_check_failures
--   compared_with: history checks: the previous snapshot compared with
--   days_since_compared: history checks: how many days before snapshot_date compared_with is
--     (more than 1: nights were missed, compared anyway)
-- A failing check warns by default (the run publishes); `sync --strict` (or "checks":
-- "strict" in the config file) fails the run before its publish on a failing rule check
-- instead, so a failed rule check of a strict run is never here. History checks only warn:
-- a change across days can be real. No check reads reach (rules on reach 1 to 4).

with

check_results as (

    select * from main.check_results

),

checks as (

    select
        snapshot_date,
        segment,
        run_id,
        check_name,
        coalesce(kind, 'rule') as kind,
        status,
        checked,
        failing,
        compared_with,
        date_diff('day', compared_with, snapshot_date) as days_since_compared
    from check_results

)

select * from checks
