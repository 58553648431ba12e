-- freshness: what the report is built from. One row.
--   sync: the last succeeded sync run (latest_sync): run_id, snapshot_date, finished_at,
--     hours_since_finished
--   stream: the newest acknowledged delivery published into the warehouse by the sink
--     (last_delivery_received_at; NULL before the first), deliveries and documents kept

with

latest_sync as (

    select * from main.latest_sync

),

stream_deliveries as (

    select received_at from main.stream_deliveries

),

stream_documents as (

    select document_id from main.stream_documents

),

-- One pass over stream_deliveries for both figures.
deliveries as (

    select max(received_at) as last_delivery_received_at, count(*) as deliveries
    from stream_deliveries

)

select
    s.run_id as sync_run_id,
    s.snapshot_date as sync_snapshot_date,
    s.finished_at as sync_finished_at,
    s.hours_since_finished as sync_hours_ago,
    d.last_delivery_received_at,
    d.deliveries,
    (select count(*) from stream_documents) as documents
from deliveries as d
left join latest_sync as s on true
