-- top_campaigns: the campaigns the report follows: those of $campaigns when given, else
-- the $top with the most engagement at $to in $segment. Ranked by that engagement.
-- Columns: campaign_id, campaign (name, id), rank

with

campaign_metrics as (

    select campaign_id, total_engagement
    from main.campaign_metrics
    where snapshot_date = $to and segment = $segment

),

campaigns as (

    select campaign_id, name from main.campaigns

),

asked as (

    select unnest(cast($campaigns::json as varchar[])) as campaign_id

),

candidates as (

    select c.campaign_id, c.name, m.total_engagement
    from campaigns as c
    left join campaign_metrics as m using (campaign_id)
    where c.campaign_id in (select campaign_id from asked)
        or ((select count(*) from asked) = 0 and m.campaign_id is not null)

),

ranked as (

    select
        campaign_id,
        coalesce(name, campaign_id) || ' (' || campaign_id || ')' as campaign,
        row_number() over (order by total_engagement desc nulls last, campaign_id) as rank
    from candidates
    qualify (select count(*) from asked) > 0 or rank <= $top

)

select * from ranked order by rank
