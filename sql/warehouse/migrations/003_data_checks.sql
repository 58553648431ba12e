-- 003_data_checks: what the data checks found in each sync, staged and published with the
-- run's facts (a re-run of a snapshot date and segment replaces its rows, like any fact).
-- The checks themselves live in sql/checks/ (one file per rule of api-v3.md); the
-- analyst views are data_checks, data_check_failures and schema_drift.

-- One row per data check that ran, per snapshot date and segment, passed or not (the
-- data_checks view reads it). Key (snapshot_date, segment, check_name).
create table check_results (
  snapshot_date date not null,
  segment       varchar not null,
  run_id        varchar not null,  -- the sync run that fetched and checked the figures
  check_name    varchar not null,
  status        varchar not null,  -- 'passed', 'failed', or 'skipped' (nothing comparable: e.g. every figure NULL)
  checked       bigint not null,   -- comparisons made (campaigns, networks, influencers or posts)
  failing       bigint not null    -- comparisons that disagreed (rows in check_failures)
);

-- One row per disagreement a data check found (the data_check_failures view reads it). Key
-- (snapshot_date, segment, check_name, campaign_id, entity_id).
create table check_failures (
  snapshot_date date not null,
  segment       varchar not null,
  check_name    varchar not null,
  campaign_id   varchar not null,
  entity_id     varchar,           -- the influencer, network or post concerned; NULL for a campaign-level check
  expected      double,            -- what the other level's figures imply (a bound for range checks)
  actual        double             -- the figure as the API reported it
);

-- Fields, stats and networks the spec does not list, seen in a run (schema drift: kept,
-- reported, never failed; the schema_drift view reads it). Key (snapshot_date, segment,
-- level, kind, name).
create table drift_observations (
  snapshot_date date not null,
  segment       varchar not null,
  level         varchar not null,  -- where it was seen: workspace, tag, campaign, network, post, influencer, influencer_profile
  kind          varchar not null,  -- field | stat | network
  name          varchar not null,  -- the field, stat or network name as sent
  occurrences   bigint not null    -- records carrying it (distinct campaigns, posts, influencers ...)
);
