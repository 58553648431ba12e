-- documents_daily: streamed documents per day and search type, from $from to $to (days of
-- stream_documents_daily: the published date, else when received). A document kept for two
-- searches of one type counts once per search. Documents are not tied to campaigns or
-- segments, so neither filter applies.
-- Columns: day, search_type, documents

with

stream_documents_daily as (

    select day, search_type, documents
    from main.stream_documents_daily
    where day between $from and $to

),

per_type as (

    select day, coalesce(search_type, 'unknown') as search_type, sum(documents) as documents
    from stream_documents_daily
    group by all

)

select * from per_type order by day, search_type
