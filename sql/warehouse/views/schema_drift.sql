-- schema_drift: fields, stats and networks the spec does not list, per snapshot in which
-- a sync saw them (drift is tolerated: kept and reported, never failed).
-- Columns (key: snapshot_date, level, kind, name):
--   snapshot_date: a snapshot in which a sync saw it
--   name: the field, stat or network name as sent
--   level: workspace, tag, campaign, network (a campaign's `sources` entry), post,
--     influencer, influencer_profile (an `influencer_metrics.sources` entry)
--   kind: field (a record field), stat (a `stats` field), network (a network API name)
--   first_seen: the first snapshot_date in which the name was seen at that level
--   occurrences: records carrying it in that snapshot, in the segment with the most (normally
--     `all`, the unfiltered view, whose records include every other segment's)
-- New drift: rows where first_seen = snapshot_date (`status` reports those of the latest
-- snapshot).

with

drift_observations as (

    select * from main.drift_observations

),

per_snapshot as (

    select snapshot_date, level, kind, name, max(occurrences) as occurrences
    from drift_observations
    group by all

),

drift as (

    select
        snapshot_date,
        level,
        kind,
        name,
        min(snapshot_date) over (partition by level, kind, name) as first_seen,
        occurrences
    from per_snapshot

)

select * from drift
