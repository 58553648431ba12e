-- latest_sync: freshness of the warehouse, the last succeeded sync run (one row, none
-- before the first success).
-- Columns:
--   snapshot_date: the API refresh the run fetched
--   started_at: when the run started (UTC)
--   finished_at: when the run finished (UTC)
--   rows_written: rows the run published
--   requests: HTTP requests the run made
--   retries: requests sent again after a failure
--   throttled: 429 responses received
--   hours_since_finished: freshness: now, in UTC, minus finished_at, in hours
-- Campaign metrics refresh daily between 18:00 and 21:00 UTC, so a healthy warehouse has
-- a snapshot_date of today or yesterday. No reach here.

with

sync_runs as (

    select * from main.sync_runs

),

last_success as (

    select *
    from sync_runs
    where status = 'succeeded'
    order by finished_at desc nulls last, started_at desc
    limit 1

),

freshness as (

    select
        run_id,
        snapshot_date,
        started_at,
        finished_at,
        rows_written,
        requests,
        retries,
        throttled,
        (epoch(get_current_timestamp()) - epoch(finished_at)) / 3600.0 as hours_since_finished
    from last_success

)

select * from freshness
