-- campaign_changes: the campaigns of $segment in scope ($campaigns, a JSON array; [] for
-- all) that moved most in engagement since the previous snapshot before $to (the latest
-- one before it, whatever the gap), with their EMV: the $top largest moves in engagement,
-- up or down, then EMV. A campaign on only one of the two snapshots is left out.
-- Columns: campaign_id, campaign (name, id), previous_snapshot, engagement_before,
--   engagement, engagement_change, emv_before, emv, emv_change

with

previous as (

    select max(snapshot_date) as snapshot_date
    from main.campaign_metrics
    where segment = $segment and snapshot_date < $to

),

campaign_metrics as (

    select snapshot_date, campaign_id, total_engagement, total_emv
    from main.campaign_metrics
    where segment = $segment
        and (snapshot_date = $to or snapshot_date = (select snapshot_date from previous))
        and ($campaigns = '[]' or list_contains(cast($campaigns::json as varchar[]), campaign_id))

),

campaigns as (

    select campaign_id, name from main.campaigns

),

changes as (

    select
        n.campaign_id,
        coalesce(c.name, n.campaign_id) || ' (' || n.campaign_id || ')' as campaign,
        p.snapshot_date as previous_snapshot,
        p.total_engagement as engagement_before,
        n.total_engagement as engagement,
        n.total_engagement - p.total_engagement as engagement_change,
        p.total_emv as emv_before,
        n.total_emv as emv,
        n.total_emv - p.total_emv as emv_change
    from campaign_metrics as n
    join campaign_metrics as p
        on p.campaign_id = n.campaign_id and p.snapshot_date = (select snapshot_date from previous)
    left join campaigns as c on c.campaign_id = n.campaign_id
    where n.snapshot_date = $to

)

select * from changes
order by abs(engagement_change) desc nulls last, abs(emv_change) desc nulls last, campaign_id
limit $top
