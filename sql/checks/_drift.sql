-- Schema drift of a sync: fields, stats and networks the spec does not list, seen in the
-- run's staged data. Drift is kept (raw JSON, stat and network rows) and reported, never
-- failed (api-profile.md: "Tolerate schema drift").
-- Prepares three temp views, drift_fields, drift_stats and drift_networks, that
-- src/warehouse/checks/run-data-checks.ts stores one at a time in drift_observations (one query
-- over all three needed more than the staging file's 32 MB of DuckDB memory at 1M posts).
-- Each view's columns: segment, level, kind ('field' | 'stat' | 'network'), name,
-- occurrences (records carrying the name). Staged stat and post rows are unique per record
-- and name (a unit's records are deduplicated as fetched), so they are counted as rows;
-- campaigns and influencers repeat across units and are counted distinct.
-- Known names: api-v3.md ("Supported networks", "stats object", "Post metrics",
-- "Influencer campaign_metrics object", fields on the influencer object) and api-profile.md
-- ("Response shapes": workspaces, tags, campaigns). Fields are looked for at the top level
-- of the records kept whole in `raw` (workspaces, tags, campaigns less metrics and
-- sources, posts, influencers less campaign_metrics and budget), from the unfiltered view.

create or replace temp table spec_networks as
select unnest(['facebook', 'instagram', 'instagram_stories', 'tiktok']) as name;

create or replace temp table spec_stats as
select unnest([
    'comments', 'likes', 'impressions', 'reach', 'saved', 'views', 'shares',
    'exits', 'replies', 'taps_back', 'taps_forward'
]) as name;

create or replace temp table spec_fields as
select * from (values
    ('workspace', ['id', 'name', 'description', 'created_at']),
    ('tag', ['id', 'name', 'workspace_id']),
    ('campaign', ['id', 'name', 'workspace_id', 'status', 'start_date', 'end_date', 'metrics', 'sources']),
    ('post', ['id', 'influencer_id', 'network', 'url', 'published_at', 'engagement', 'reach', 'emv', 'stats']),
    ('influencer', ['id', 'name', 'budget', 'tags', 'campaign_metrics', 'influencer_metrics'])
) as t (level, names);

create or replace temp view drift_fields as
with

entity_fields as (

    select level, record, unnest(json_keys(raw)) as name
    from (
        select 'workspace' as level, workspace_id as record, raw from workspaces
        union all
        select 'tag', tag_id, raw from influencer_tags
        union all
        select 'campaign', campaign_id, raw from campaigns
        union all
        select 'influencer', influencer_id, raw from influencers
    )

),

post_fields as (

    select unnest(json_keys(raw)) as name
    from posts

)

select 'all' as segment, f.level, 'field' as kind, f.name, count(distinct f.record) as occurrences
from entity_fields as f
join spec_fields as s on s.level = f.level
where not list_contains(s.names, f.name)
group by all
union all
-- a unit's posts are unique: counted as rows
select 'all', 'post', 'field', name, count(*)
from post_fields
where not list_contains((select names from spec_fields where level = 'post'), name)
group by all;

create or replace temp view drift_stats as
select segment, 'network' as level, 'stat' as kind, stat as name, count(*) as occurrences
from campaign_network_stats
where stat not in (select name from spec_stats)
group by all
union all
select segment, 'post', 'stat', stat, count(*)
from post_stats
where stat not in (select name from spec_stats)
group by all
union all
select segment, 'influencer', 'stat', stat, count(*)
from influencer_stats
where stat not in (select name from spec_stats)
group by all;

create or replace temp view drift_networks as
select segment, 'network' as level, 'network' as kind, network as name, count(distinct campaign_id) as occurrences
from campaign_network_metrics
where network not in (select name from spec_networks)
group by all
union all
select segment, 'post', 'network', network, count(*)
from post_metrics
where network is not null and network not in (select name from spec_networks)
group by all
union all
select 'all', 'influencer_profile', 'network', network, count(distinct influencer_id)
from influencer_network_profiles
where network not in (select name from spec_networks)
group by all;
