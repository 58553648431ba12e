-- sales_by_currency: attributed sales per currency at $to in $segment, over the campaigns
-- in scope ($campaigns, a JSON array; [] for all), against the budget of the influencers
-- those sales are attributed to. The API does not state the budget's currency, so each
-- currency's budget is the sum of the budgets of its selling influencers, as reported;
-- amounts of different currencies are never added.
-- Columns: currency, sales, budget, influencers (influencer-campaigns with sales in it)

with

sales_vs_budget as (

    select campaign_id, currency, sales_amount, budget
    from main.sales_vs_budget
    where snapshot_date = $to and segment = $segment and currency is not null
        and ($campaigns = '[]' or list_contains(cast($campaigns::json as varchar[]), campaign_id))

),

per_currency as (

    select
        currency,
        sum(sales_amount) as sales,
        sum(budget) as budget,
        count(*) as influencers
    from sales_vs_budget
    group by currency

)

select * from per_currency order by sales desc nulls last, currency
