-- window: the report's latest snapshot for the segment and the segments that exist.
-- Parameters: $segment. One row.
--   latest_snapshot: the newest snapshot_date of campaign_metrics in $segment (NULL: none)
--   segments: every segment of campaign_metrics, sorted, comma-separated (segment names
--     are a-z, 0-9, _ and -)
--   documents_to: the newest day of stream_documents_daily (NULL: no documents)

with

campaign_metrics as (

    select snapshot_date, segment from main.campaign_metrics

),

stream_documents as (

    select published_date, received_at from main.stream_documents

),

-- One pass over campaign_metrics for both figures.
snapshots as (

    select
        max(snapshot_date) filter (where segment = $segment) as latest_snapshot,
        string_agg(distinct segment, ',' order by segment) as segments
    from campaign_metrics

)

select
    s.latest_snapshot,
    s.segments,
    (select max(cast(coalesce(published_date, received_at) as date)) from stream_documents) as documents_to
from snapshots as s
