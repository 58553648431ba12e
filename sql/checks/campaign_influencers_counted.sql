-- campaign_influencers_counted: a campaign's `metrics.num_influencers` lies between the
-- number of distinct influencers among its posts and the number of influencers the
-- influencers endpoint lists for it.
-- Rule: api-v3.md, "Campaign metrics object": num_influencers is the "Number of influencers
-- associated with the campaign"; every influencer who created a campaign post is
-- associated with it, and the influencers endpoint returns "The campaign's influencers".
-- The spec does not say whether an influencer listed without posts counts (the simulator
-- does not count one), so the rule is the range both readings satisfy, not an equality.
-- Level: campaign (entity_id NULL). Exact: counts. `expected` is the bound crossed.
-- Scope: segments without a `sources` filter (api-v3.md, "Filters"). Not compared: a NULL count.
select
    segment,
    campaign_id,
    null::varchar as entity_id,
    case
        when num_influencers < posting_influencers then posting_influencers
        when num_influencers > listed_influencers then listed_influencers
        else num_influencers
    end::double as expected,
    num_influencers::double as actual,
    num_influencers between posting_influencers and listed_influencers as ok
from check_campaigns
