-- sales_vs_budget: each influencer's attributed sales per currency against the budget
-- assigned for the campaign, for every snapshot_date and segment.
-- Columns (key: snapshot_date, segment, campaign_id, influencer_id, currency):
--   currency: the sales' ISO 4217 code as sent; NULL for an influencer without attributed sales
--   sales_amount: sales attributed to the influencer on the campaign, in that currency
--   budget: the budget assigned to the influencer for the campaign (currency not stated)
--   sales_to_budget: sales_amount / budget; NULL when the budget is 0 or missing
-- An influencer with a budget but no attributed sales has one row with a NULL currency.
-- The API does not state the budget's currency: compare within a currency you know the
-- budget is in. Amounts of different currencies are never added. No reach here.

with

influencer_campaign_metrics as (

    select * from main.influencer_campaign_metrics

),

influencer_sales as (

    select * from main.influencer_sales

),

joined as (

    select
        m.snapshot_date,
        m.segment,
        m.campaign_id,
        m.influencer_id,
        s.currency,
        s.amount as sales_amount,
        m.budget,
        s.amount / nullif(m.budget, 0) as sales_to_budget
    from influencer_campaign_metrics as m
    left join influencer_sales as s
        on s.snapshot_date = m.snapshot_date
        and s.segment = m.segment
        and s.campaign_id = m.campaign_id
        and s.influencer_id = m.influencer_id

)

select * from joined
