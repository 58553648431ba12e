-- 002_streaming: documents pushed by the API to our hooks, landed by the sink's loader.
-- Each pushed document is kept once per hook, keyed by (hook_id, document_id), however
-- often the API delivered it (deliveries are at-least-once).

create table stream_documents (
  hook_id        varchar not null,  -- key (hook_id, document_id)
  search_id      bigint,
  search_type    varchar,           -- social | editorial | broadcast
  document_id    varchar not null,  -- the document's `id`
  published_date timestamp,
  indexed_date   timestamp,
  url            varchar,
  source_name    varchar,           -- source.name
  title          varchar,           -- content.title
  language       varchar,
  country        varchar,
  received_at    timestamp not null, -- when the sink first acknowledged a delivery holding it (UTC)
  valid_schema   boolean,           -- validated against the stored streaming JSON Schema; NULL when none was stored
  document       json not null      -- the full document as delivered, unknown fields included
);

-- One row per acknowledged delivery (a POST the sink verified and committed).
create table stream_deliveries (
  delivery_id bigint not null,      -- key; the inbox's sequence number
  hook_id     varchar not null,
  received_at timestamp not null,
  documents   bigint not null,      -- documents in the body, duplicates included
  bytes       bigint not null       -- raw body size
);

-- The hooks this tool manages, as last known. Secrets are never stored here.
create table hooks (
  hook_id     varchar not null,     -- key
  search_id   bigint,
  search_type varchar,
  target_url  varchar,
  status      varchar,              -- PENDING | ACTIVE | PAUSED | HALTED (API), or DELETED
  updated     timestamp,
  version     varchar,
  created_at  timestamp,
  deleted_at  timestamp
);
