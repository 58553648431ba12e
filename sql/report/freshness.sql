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

)

select
    s.run_id as sync_run_id,
    s.snapshot_date as sync_snapshot_date,
    s.finished_at as sync_finished_at,
    s.hours_since_finished as sync_hours_ago,
    (select max(received_at) from stream_deliveries) as last_delivery_received_at,
    (select count(*) from stream_deliveries) as deliveries,
    (select count(*) from stream_documents) as documents
from (select 1) as one
left join latest_sync as s on true
