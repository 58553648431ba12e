-- stream_documents_daily: pushed documents per day, search and source.
-- Columns (key: day, search_id, search_type, source_name):
--   day: the document's published_date, else the day it was received (UTC)
--   source_name: source.name: where the documents were published
--   documents: distinct documents of the search (one delivered to two hooks of the same search
--     counts once)
--   hooks: hooks that received them
--   first_received_at: when the sink first received one of them (UTC)
--   last_received_at: when the sink last received one of them (UTC)
-- No reach here.

with

stream_documents as (

    select * from main.stream_documents

),

daily as (

    select
        cast(coalesce(published_date, received_at) as date) as day,
        search_id,
        search_type,
        source_name,
        count(distinct document_id) as documents,
        count(distinct hook_id) as hooks,
        min(received_at) as first_received_at,
        max(received_at) as last_received_at
    from stream_documents
    group by all

)

select * from daily
