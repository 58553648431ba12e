-- latest_stream_documents: the 100 most recently published documents of each search
-- (enough for a "what came in" panel; query stream_documents for more).
-- Columns (key: search_id, document_id):
--   document_id: the document's `id`
--   recency_rank: the document's rank within its search, newest first (1 = newest), by
--     published_date, else when it was received
--   published_date: when the document was published (UTC)
--   indexed_date: when the API indexed it (UTC)
--   url: the document's address
--   source_name: source.name: where it was published
--   title: content.title
--   language: the document's language as sent
--   country: the document's country as sent
--   hook_id: the first hook that received it
--   received_at: when the sink first acknowledged a delivery holding it (UTC)
--   valid_schema: whether it validated against the stored streaming JSON Schema; NULL when
--     none was stored
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
