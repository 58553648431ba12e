-- network_influencers_counted: each network's `num_influencers` in a campaign's `sources`
-- lies between the number of distinct influencers among the campaign's posts on that
-- network and the campaign's own `metrics.num_influencers`.
-- Rule: api-v3.md, "Each entry of sources": num_influencers is the "Influencers associated
-- with the campaign on this network": every influencer who posted there is, and each is
-- one of the "influencers associated with the campaign" (Campaign metrics object).
-- As for campaign_influencers_counted, a range, not an equality: the spec does not say
-- whether an influencer without posts counts.
-- Level: network (entity_id the network). Exact: counts. `expected` is the bound crossed.
-- Scope: as network_posts_counted. Not compared: a NULL count at either level.
with

networks as (

    select n.segment, n.campaign_id, n.network, n.num_influencers, m.num_influencers as campaign_influencers
    from campaign_network_metrics as n
    left join campaign_metrics as m on m.segment = n.segment and m.campaign_id = n.campaign_id

),

posting as (

    select segment, campaign_id, network, count(distinct influencer_id) as influencers
    from check_post_totals
    where network is not null
    group by all

),

bounds as (

    select
        n.*,
        coalesce(p.influencers, 0) as at_least,
        n.campaign_influencers as at_most
    from networks as n
    left join posting as p
        on p.segment = n.segment and p.campaign_id = n.campaign_id and p.network = n.network

)

select
    b.segment,
    b.campaign_id,
    b.network as entity_id,
    case when b.num_influencers < b.at_least then b.at_least when b.num_influencers > b.at_most then b.at_most
        else b.num_influencers end::double as expected,
    b.num_influencers::double as actual,
    b.num_influencers between b.at_least and b.at_most as ok
from bounds as b
join check_segments as s on s.segment = b.segment
where network_in_view(s.sources, b.network)
