-- 002_streaming: documents pushed by the API to our hooks, landed by the sink's loader.
-- Each pushed document is kept once per hook, keyed by (hook_id, document_id), however
-- often the API delivered it (deliveries are at-least-once).

-- Documents the API pushed to our hooks, each kept once per hook however often it was
-- delivered. Key (hook_id, document_id).
create table stream_documents (
  hook_id        varchar not null,  -- the hook that received it (hooks.hook_id)
  search_id      bigint,
  search_type    varchar,
  document_id    varchar not null,  -- the document's `id`
  published_date timestamp,         -- when the document was published (UTC)
  indexed_date   timestamp,         -- when the API indexed it (UTC)
  url            varchar,           -- the document's address
  source_name    varchar,           -- source.name: where it was published
  title          varchar,           -- content.title
  language       varchar,           -- the document's language as sent
  country        varchar,           -- the document's country as sent
  received_at    timestamp not null, -- when the sink first acknowledged a delivery holding it (UTC)
  valid_schema   boolean,           -- validated against the stored streaming JSON Schema; NULL when none was stored
  document       json not null      -- the full document as delivered, unknown fields included
);

-- One row per acknowledged delivery (a POST the sink verified and committed). Key delivery_id.
create table stream_deliveries (
  delivery_id bigint not null,      -- key; the inbox's sequence number
  hook_id     varchar not null,     -- the hook it was posted to
  received_at timestamp not null,   -- when the sink acknowledged it (UTC)
  documents   bigint not null,      -- documents in the body, duplicates included
  bytes       bigint not null       -- raw body size
);

-- The hooks this tool manages, as last known (key hook_id). Secrets are never stored here.
create table hooks (
  hook_id     varchar not null,     -- the hook's id (key)
  search_id   bigint,               -- the API's search the hook belongs to
  search_type varchar,              -- the search's type: social, editorial or broadcast
  target_url  varchar,              -- where the API posts the search's documents
  status      varchar,              -- PENDING | ACTIVE | PAUSED | HALTED (API), or DELETED
  updated     timestamp,            -- the API's `updated` of the hook record
  version     varchar,              -- the API's version of the hook record
  created_at  timestamp,            -- when this tool created the hook (UTC)
  deleted_at  timestamp             -- when this tool deleted it (UTC); NULL while it exists
);
