-- 001_init: the extractor's tables.
-- Contract with analysts and BI tools (see README "The warehouse"). Conventions:
--   identifiers are VARCHAR (the API's ids are strings, even when they look numeric);
--   counts (posts, influencers, engagement, reach, followers) are BIGINT;
--   rates, money and scores are DOUBLE; stat values are DOUBLE (free-form counters);
--   snapshot_date is the DATE of the API refresh the figures come from;
--   segment is 'all' for unfiltered figures, else the name of a configured segment
--     (a set of tag ids and/or networks sent as the API's `tags` / `sources` filters);
--   times are TIMESTAMP in UTC.
-- Facts are keyed by (snapshot_date, segment, entity); a re-run of a snapshot date and
-- segment replaces its rows, so the keys below are unique. They are not declared as
-- PRIMARY KEY constraints: bulk loads stay fast and the publish step enforces them.
--
-- Descriptions: the comment lines right above a `create table` describe the table, a column's
-- trailing comment the column, and the block below a column of that name in any table or view
-- that does not describe it itself. The catalog (warehouse.duckdb) carries them as COMMENT ON,
-- for BI tools and `campaign-warehouse tables` (src/warehouse/sql-descriptions.ts).
-- Comments may be edited in a shipped migration; its statements may not.
--
-- Shared columns (a column of this name, unless its table or view describes it):
--   snapshot_date: the date of the API refresh the figures come from (the API refreshes
--     between 18:00 and 21:00 UTC)
--   segment: 'all' for the unfiltered figures, else the name of a configured segment (a set of
--     tag ids and/or networks sent as the API's `tags` / `sources` filters)
--   workspace_id: the workspace's id (workspaces.workspace_id)
--   campaign_id: the campaign's id (campaigns.campaign_id)
--   influencer_id: the influencer's id (influencers.influencer_id)
--   post_id: the post's id (posts.post_id, unique within its campaign)
--   tag_id: the influencer tag's id (influencer_tags.tag_id), the value of the API's `tags` filter
--   network: the network's API name: facebook, instagram, instagram_stories, tiktok, or one the
--     spec does not list
--   stat: the statistic's name as the API sent it (e.g. likes, comments, impressions, reach,
--     taps_forward), listed in the spec or not
--   value: the statistic's value (free-form counters, so DOUBLE)
--   num_posts: posts created by influencers for the campaign, at this row's level
--   num_influencers: influencers associated with the campaign, at this row's level
--   engagement: total engagements of the campaign posts at this row's level
--   engagement_rate: average engagement rate of the campaign posts at this row's level
--   emv: total earned media value of the campaign posts at this row's level
--   raw: the full API record, as JSON (fields the spec does not list kept)
--   first_seen_at: when a sync first saw this record (UTC)
--   last_seen_at: when a sync last saw this record (UTC)
--   run_id: the sync run's id (sync_runs.run_id)
--   check_name: the data check: its file name in sql/checks/ (a rule) or sql/checks/history/
--     (a history check), e.g. campaign_posts_counted
--   hook_id: the hook's id (hooks.hook_id)
--   search_id: the API's search the hook belongs to
--   search_type: the search's type: social, editorial or broadcast
--   received_at: when the sink first acknowledged a delivery holding it (UTC)

-- ---------------------------------------------------------------- entities
-- Latest attributes of each entity, the full raw API record in `raw` (fields the spec
-- does not list are kept there), and when the extractor first and last saw it.

-- The API account's workspaces (key workspace_id): latest attributes.
create table workspaces (
  workspace_id  varchar not null,  -- the workspace's id (key)
  name          varchar,           -- the workspace's name
  description   varchar,           -- the workspace's description
  created_at    timestamp,         -- when the workspace was created, as reported by the API (UTC)
  raw           json,              -- the full API record of the workspace, as JSON
  first_seen_at timestamp not null,
  last_seen_at  timestamp not null
);

-- Influencer tags of each workspace (key tag_id): what a segment's `tags` filter names.
create table influencer_tags (
  tag_id        varchar not null,  -- the tag's id (key); the value used in the `tags` filter
  name          varchar,           -- the tag's name
  workspace_id  varchar,           -- the workspace the tag belongs to
  raw           json,
  first_seen_at timestamp not null,
  last_seen_at  timestamp not null
);

-- Campaigns (key campaign_id): latest attributes; the figures are in the daily facts.
create table campaigns (
  campaign_id   varchar not null,  -- the campaign's id (key)
  name          varchar,           -- the campaign's name
  workspace_id  varchar,           -- the workspace the campaign belongs to
  status        varchar,           -- the campaign's status as the API sends it
  start_date    date,              -- the campaign's first day
  end_date      date,              -- the campaign's last day
  raw           json,              -- the list record merged with the detail record, less metrics and sources, as JSON
  first_seen_at timestamp not null,
  last_seen_at  timestamp not null
);

-- Influencers of the campaigns (key influencer_id): latest attributes.
create table influencers (
  influencer_id varchar not null,  -- the influencer's id (key)
  name          varchar,           -- the influencer's name
  raw           json,              -- the latest influencer record, less the campaign-specific campaign_metrics and budget, as JSON
  first_seen_at timestamp not null,
  last_seen_at  timestamp not null
);

-- Posts of each campaign (key campaign_id, post_id): latest attributes; the figures are in
-- post_metrics and post_stats.
create table posts (
  campaign_id   varchar not null,
  post_id       varchar not null,
  influencer_id varchar,           -- the influencer who posted it
  network       varchar,
  url           varchar,           -- the post's address on its network
  published_at  timestamp,         -- when the post was published (UTC)
  raw           json,
  first_seen_at timestamp not null,
  last_seen_at  timestamp not null
);

-- ---------------------------------------------------------------- daily facts

-- Campaign level, per snapshot and segment: the `metrics` object of GET
-- /v3/influencers/campaigns/{id}. Key (snapshot_date, segment, campaign_id).
create table campaign_metrics (
  snapshot_date    date not null,
  segment          varchar not null,
  campaign_id      varchar not null,
  num_posts        bigint,   -- posts created by influencers for the campaign
  num_influencers  bigint,   -- influencers associated with the campaign
  total_engagement bigint,   -- total engagements across all campaign posts
  engagement_rate  double,   -- average engagement rate of the campaign posts
  total_reach      bigint,   -- total reach of the campaign: NOT the sum of per-network reach (one person reached on two networks counts once: rules on reach 1 and 4)
  total_emv        double    -- total earned media value across all campaign posts
);

-- Campaign per network, per snapshot and segment: each entry of the campaign's `sources`
-- object (only networks with posts). Key (snapshot_date, segment, campaign_id, network).
create table campaign_network_metrics (
  snapshot_date   date not null,
  segment         varchar not null,
  campaign_id     varchar not null,
  network         varchar not null,
  num_posts       bigint,
  num_influencers bigint,
  engagement      bigint,
  engagement_rate double,
  reach           bigint,    -- total reach of the campaign posts on this network; a different measure from stats.reach (rule on reach 2); never add it across networks (rule 1)
  emv             double
);

-- Campaign per network, one row per statistic of a `sources` entry's `stats` (the network's
-- totals; campaign_network_stats_wide pivots them). Key (snapshot_date, segment, campaign_id,
-- network, stat).
create table campaign_network_stats (
  snapshot_date date not null,
  segment       varchar not null,
  campaign_id   varchar not null,
  network       varchar not null,
  stat          varchar not null,
  value         double             -- the network's total of the statistic for the campaign
);

-- Post level, per snapshot and segment: each entry of GET .../campaigns/{id}/posts. Key
-- (snapshot_date, segment, campaign_id, post_id).
create table post_metrics (
  snapshot_date date not null,
  segment       varchar not null,
  campaign_id   varchar not null,
  post_id       varchar not null,
  influencer_id varchar,           -- the influencer who posted it
  network       varchar,
  engagement    bigint,            -- total engagement on the post
  reach         bigint,            -- reach of the post
  emv           double             -- earned media value attributed to the post
);

-- Post level, one row per statistic of a post's `stats`. Key (snapshot_date, segment,
-- campaign_id, post_id, stat).
create table post_stats (
  snapshot_date date not null,
  segment       varchar not null,
  campaign_id   varchar not null,
  post_id       varchar not null,
  stat          varchar not null,
  value         double             -- the post's count of the statistic
);

-- Influencer level, per snapshot and segment: `campaign_metrics` of each entry of GET
-- .../campaigns/{id}/influencers, plus the influencer's `budget` for the campaign. Key
-- (snapshot_date, segment, campaign_id, influencer_id).
create table influencer_campaign_metrics (
  snapshot_date   date not null,
  segment         varchar not null,
  campaign_id     varchar not null,
  influencer_id   varchar not null,
  num_posts       bigint,    -- posts the influencer created for the campaign
  engagement      bigint,    -- total engagement across the influencer's campaign posts
  engagement_rate double,    -- average engagement rate across those posts
  reach           bigint,    -- total reach of the influencer's campaign posts only; not influencer_profiles.true_reach (rule on reach 3)
  emv             double,    -- total earned media value across those posts
  budget          double     -- the budget assigned to the influencer for the campaign (the API does not say its currency)
);

-- Influencer level, `campaign_metrics.sales`: one row per currency, only where the API
-- attributes sales. Key (snapshot_date, segment, campaign_id, influencer_id, currency).
create table influencer_sales (
  snapshot_date date not null,
  segment       varchar not null,
  campaign_id   varchar not null,
  influencer_id varchar not null,
  currency      varchar not null,  -- ISO 4217 code as sent
  amount        double             -- sales attributed to the influencer on the campaign, in that currency
);

-- Influencer level, one row per statistic of `campaign_metrics.stats` (the influencer's totals
-- on the campaign). Key (snapshot_date, segment, campaign_id, influencer_id, stat).
create table influencer_stats (
  snapshot_date date not null,
  segment       varchar not null,
  campaign_id   varchar not null,
  influencer_id varchar not null,
  stat          varchar not null,
  value         double             -- the influencer's total of the statistic on the campaign
);

-- `influencer_metrics`: the influencer independent of any campaign, from the unfiltered view.
-- Key (snapshot_date, influencer_id).
create table influencer_profiles (
  snapshot_date date not null,
  influencer_id varchar not null,
  influence     double,    -- the platform's influence score for the influencer
  brand_score   double,    -- the brand score for the influencer as provided by the platform
  true_reach    bigint,    -- true reach: the whole audience across the influencer's networks (not a campaign's reach: rule on reach 3)
  followers     bigint     -- total followers across the influencer's networks
);

-- `influencer_metrics.sources`: one row per network profile. Key (snapshot_date, influencer_id, network).
create table influencer_network_profiles (
  snapshot_date       date not null,
  influencer_id       varchar not null,
  network             varchar not null,
  profile_id          varchar,       -- the network's id of the profile (`id`)
  username            varchar,       -- the influencer's handle on the network
  followers           bigint,        -- followers on this network
  engagement_per_post double,        -- average engagements per post on this network
  true_reach          bigint         -- true reach on this network
);

-- Influencer `tags` as applied on each campaign, from the unfiltered view.
-- Key (snapshot_date, campaign_id, influencer_id, tag_id).
create table influencer_tag_assignments (
  snapshot_date date not null,
  campaign_id   varchar not null,
  influencer_id varchar not null,
  tag_id        varchar not null
);

-- ---------------------------------------------------------------- runs
-- One row per published sync run (key run_id), so freshness is queryable from the warehouse
-- itself (latest_sync).
create table sync_runs (
  run_id        varchar not null,  -- the run's id (key)
  started_at    timestamp not null, -- when the run started (UTC)
  finished_at   timestamp,         -- when the run finished (UTC)
  status        varchar not null,  -- 'succeeded' (failed runs are recorded in the state database and `status`)
  snapshot_date date not null,     -- the API refresh the run fetched
  requests      bigint,            -- HTTP requests the run made
  retries       bigint,            -- requests sent again after a failure
  throttled     bigint,            -- 429 responses received
  rows_written  bigint,            -- rows the run published
  error         varchar            -- what went wrong, for a run that did not succeed
);
