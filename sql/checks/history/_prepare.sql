-- Prepared before the history checks of a sync (src/warehouse/checks/history-checks.ts), on the
-- run's staging file, whose fact tables hold the staged snapshot. The runner has created,
-- from the lake's files of the previous snapshots of each segment of the run (those files
-- only: never the whole history), temp tables of the campaigns and networks and a view over
-- the files of the posts (read as the checks stream them):
--   history_previous(segment, snapshot_date): the latest snapshot before this one, per
--     segment (none: the segment's history checks are skipped);
--   history_campaigns(segment, snapshot_date, campaign_id, num_posts, total_engagement,
--     total_emv): campaign_metrics of the last HISTORY_SNAPSHOTS snapshots before this one;
--   history_networks(segment, campaign_id, network, num_posts, engagement): the previous
--     snapshot's campaign_network_metrics;
--   history_posts(segment, campaign_id, post_id, engagement): its post_metrics;
-- and the macros of the tolerances (config `checks.history`): engagement_tolerance(),
-- emv_tolerance(), post_engagement_tolerance(), anomaly_width(), anomaly_min_change(),
-- anomaly_min_posts().
-- A campaign, post or network is compared only when the staged snapshot has the campaign
-- (a campaign no longer fetched is not a vanished one). No check reads reach: it never adds
-- up and is not cumulative (api-v3.md, rules on reach).

-- Temp tables, not views, of one row per campaign: read by several checks, twice each.

-- The campaigns of the staged snapshot that the previous snapshot of their segment had, the
-- previous figures beside today's.
create or replace temp table history_campaign_pairs as
select
    m.segment,
    m.campaign_id,
    h.num_posts as previous_num_posts,
    m.num_posts,
    h.total_engagement as previous_total_engagement,
    m.total_engagement,
    h.total_emv as previous_total_emv,
    m.total_emv
from campaign_metrics as m
join history_previous as p on p.segment = m.segment
join history_campaigns as h
    on h.segment = m.segment and h.snapshot_date = p.snapshot_date and h.campaign_id = m.campaign_id;

-- The staged snapshot's campaigns, per segment: what the post and network checks compare.
create or replace temp table history_staged_campaigns as
select distinct segment, campaign_id from campaign_metrics;
