-- unknown_campaigns: the ids of $campaigns (a JSON array) that no campaign has.

with

asked as (

    select unnest(cast($campaigns::json as varchar[])) as campaign_id

),

campaigns as (

    select campaign_id from main.campaigns

)

select a.campaign_id
from asked as a
anti join campaigns as c using (campaign_id)
