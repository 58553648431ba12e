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

-- ---------------------------------------------------------------- entities
-- Latest attributes of each entity, the full raw API record in `raw` (fields the spec
-- does not list are kept there), and when the extractor first and last saw it.

create table workspaces (
  workspace_id  varchar not null,  -- key
  name          varchar,
  description   varchar,
  created_at    timestamp,         -- as reported by the API
  raw           json,              -- full API record
  first_seen_at timestamp not null,
  last_seen_at  timestamp not null
);

create table influencer_tags (
  tag_id        varchar not null,  -- key; the value used in the `tags` filter
  name          varchar,
  workspace_id  varchar,
  raw           json,
  first_seen_at timestamp not null,
  last_seen_at  timestamp not null
);

create table campaigns (
  campaign_id   varchar not null,  -- key
  name          varchar,
  workspace_id  varchar,
  status        varchar,
  start_date    date,
  end_date      date,
  raw           json,              -- list record merged with the detail record, less metrics and sources
  first_seen_at timestamp not null,
  last_seen_at  timestamp not null
);

create table influencers (
  influencer_id varchar not null,  -- key
  name          varchar,
  raw           json,              -- latest influencer record, less the campaign-specific campaign_metrics and budget
  first_seen_at timestamp not null,
  last_seen_at  timestamp not null
);

create table posts (
  campaign_id   varchar not null,  -- key (campaign_id, post_id)
  post_id       varchar not null,
  influencer_id varchar,
  network       varchar,           -- API name: facebook, instagram, instagram_stories, tiktok, or one the spec does not list
  url           varchar,
  published_at  timestamp,
  raw           json,
  first_seen_at timestamp not null,
  last_seen_at  timestamp not null
);

-- ---------------------------------------------------------------- daily facts

-- Campaign level: the `metrics` object of GET /v3/influencers/campaigns/{id}.
create table campaign_metrics (
  snapshot_date    date not null,
  segment          varchar not null,
  campaign_id      varchar not null,
  num_posts        bigint,
  num_influencers  bigint,
  total_engagement bigint,
  engagement_rate  double,
  total_reach      bigint,   -- NOT the sum of per-network reach (spec, rules on reach 1 and 4)
  total_emv        double
);

-- Campaign per network: each entry of the campaign's `sources` object.
create table campaign_network_metrics (
  snapshot_date   date not null,
  segment         varchar not null,
  campaign_id     varchar not null,
  network         varchar not null,
  num_posts       bigint,
  num_influencers bigint,
  engagement      bigint,
  engagement_rate double,
  reach           bigint,    -- this network's reach; differs from stats.reach (rule 2)
  emv             double
);

-- One row per statistic of a `sources` entry's `stats` (totals for the network).
create table campaign_network_stats (
  snapshot_date date not null,
  segment       varchar not null,
  campaign_id   varchar not null,
  network       varchar not null,
  stat          varchar not null,  -- e.g. likes, comments, impressions, reach, taps_forward, or one the spec does not list
  value         double
);

-- Post level: each entry of GET .../campaigns/{id}/posts.
create table post_metrics (
  snapshot_date date not null,
  segment       varchar not null,
  campaign_id   varchar not null,
  post_id       varchar not null,
  influencer_id varchar,
  network       varchar,
  engagement    bigint,
  reach         bigint,
  emv           double
);

-- One row per statistic of a post's `stats`.
create table post_stats (
  snapshot_date date not null,
  segment       varchar not null,
  campaign_id   varchar not null,
  post_id       varchar not null,
  stat          varchar not null,
  value         double
);

-- Influencer level: `campaign_metrics` of each entry of GET .../campaigns/{id}/influencers,
-- plus the influencer's `budget` for the campaign.
create table influencer_campaign_metrics (
  snapshot_date   date not null,
  segment         varchar not null,
  campaign_id     varchar not null,
  influencer_id   varchar not null,
  num_posts       bigint,
  engagement      bigint,
  engagement_rate double,
  reach           bigint,    -- campaign posts only; not influencer_profiles.true_reach (rule 3)
  emv             double,
  budget          double
);

-- `campaign_metrics.sales`: one row per currency, only where the API attributes sales.
create table influencer_sales (
  snapshot_date date not null,
  segment       varchar not null,
  campaign_id   varchar not null,
  influencer_id varchar not null,
  currency      varchar not null,  -- ISO 4217 code as sent
  amount        double
);

-- One row per statistic of `campaign_metrics.stats` (the influencer's totals on the campaign).
create table influencer_stats (
  snapshot_date date not null,
  segment       varchar not null,
  campaign_id   varchar not null,
  influencer_id varchar not null,
  stat          varchar not null,
  value         double
);

-- `influencer_metrics`: the influencer independent of any campaign, from the unfiltered view.
-- Key (snapshot_date, influencer_id).
create table influencer_profiles (
  snapshot_date date not null,
  influencer_id varchar not null,
  influence     double,
  brand_score   double,
  true_reach    bigint,    -- whole audience across networks
  followers     bigint
);

-- `influencer_metrics.sources`: one row per network profile. Key (snapshot_date, influencer_id, network).
create table influencer_network_profiles (
  snapshot_date       date not null,
  influencer_id       varchar not null,
  network             varchar not null,
  profile_id          varchar,       -- the network's id of the profile (`id`)
  username            varchar,
  followers           bigint,
  engagement_per_post double,
  true_reach          bigint
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
-- One row per published sync run, so freshness is queryable from the warehouse itself.
create table sync_runs (
  run_id        varchar not null,  -- key
  started_at    timestamp not null,
  finished_at   timestamp,
  status        varchar not null,  -- 'succeeded' (failed runs are recorded in the state database and `status`)
  snapshot_date date not null,
  requests      bigint,
  retries       bigint,
  throttled     bigint,            -- 429 responses received
  rows_written  bigint,
  error         varchar
);
