-- campaign_history: engagement and EMV of the followed campaigns ($ids, a JSON array) on
-- every snapshot from $from to $to in $segment.
-- Columns: snapshot_date, campaign_id, engagement, emv

with

campaign_metrics as (

    select snapshot_date, campaign_id, total_engagement, total_emv
    from main.campaign_metrics
    where snapshot_date between $from and $to and segment = $segment
        and list_contains(cast($ids::json as varchar[]), campaign_id)

),

history as (

    select
        m.snapshot_date,
        m.campaign_id,
        m.total_engagement as engagement,
        m.total_emv as emv
    from campaign_metrics as m

)

select * from history order by snapshot_date, campaign_id
