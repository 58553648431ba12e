-- latest_influencer_sales: rows of influencer_sales at the latest snapshot_date of each segment (a segment
-- not synced lately keeps showing its last complete day).
-- Columns, as in influencer_sales: snapshot_date, segment, campaign_id, influencer_id, currency, amount.
-- Reach figures are passed through at the level they were fetched, never summed
-- (spec, rules on reach 1 to 4).

with

influencer_sales as (

    select * from main.influencer_sales

),

latest as (

    select *
    from influencer_sales
    qualify snapshot_date = max(snapshot_date) over (partition by segment)

)

select * from latest
