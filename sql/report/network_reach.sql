-- network_reach: each followed campaign's ($ids, a JSON array) reach per network at $to in
-- $segment, beside the campaign's own total_reach. Each figure is the API's, at its level:
-- a campaign's total_reach is not the sum of its networks' reach (rules on reach 1 and 4),
-- so nothing here is added up.
-- Columns: campaign_id, network, reach, campaign_total_reach

with

campaign_network_metrics as (

    select campaign_id, network, reach
    from main.campaign_network_metrics
    where snapshot_date = $to and segment = $segment
        and list_contains(cast($ids::json as varchar[]), campaign_id)

),

campaign_metrics as (

    select campaign_id, total_reach
    from main.campaign_metrics
    where snapshot_date = $to and segment = $segment

),

reach as (

    select n.campaign_id, n.network, n.reach, m.total_reach as campaign_total_reach
    from campaign_network_metrics as n
    left join campaign_metrics as m using (campaign_id)

)

select * from reach order by campaign_id, network
