-- latest_stream_documents: the 100 most recently published documents of each search
-- (enough for a "what came in" panel; query stream_documents for more).
-- Columns:
--   key: search_id, search_type, document_id, recency_rank (1 = newest)
--   document: published_date, indexed_date, url, source_name, title, language, country
--   delivery: hook_id (first hook that received it), received_at, valid_schema
-- A document pushed to two hooks of the same search appears once. No reach here.

with

stream_documents as (

    select * from main.stream_documents

),

per_search as (

    select *
    from stream_documents
    qualify row_number() over (partition by search_id, document_id order by received_at, hook_id) = 1

),

ranked as (

    select
        search_id,
        search_type,
        document_id,
        row_number() over (
            partition by search_id
            order by coalesce(published_date, received_at) desc, document_id
        ) as recency_rank,
        published_date,
        indexed_date,
        url,
        source_name,
        title,
        language,
        country,
        hook_id,
        received_at,
        valid_schema
    from per_search
    qualify recency_rank <= 100

)

select * from ranked
