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
select
    segment,
    campaign_id,
    network as entity_id,
    case
        when num_influencers < posting_influencers then posting_influencers
        when num_influencers > campaign_influencers then campaign_influencers
        else num_influencers
    end::double as expected,
    num_influencers::double as actual,
    num_influencers between posting_influencers and campaign_influencers as ok
from check_networks
where listed
