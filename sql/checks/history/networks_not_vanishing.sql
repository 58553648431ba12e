-- networks_not_vanishing: every network in a campaign's `sources` on the previous snapshot
-- is still there, for the campaigns the staged snapshot has.
-- Level: network (entity_id the network's API name). expected: the network's previous
-- num_posts; actual: today's, NULL when the network vanished.
select
    h.segment,
    h.campaign_id,
    h.network as entity_id,
    h.num_posts::double as expected,
    t.num_posts::double as actual,
    t.network is not null as ok
from history_networks as h
join history_staged_campaigns as c on c.segment = h.segment and c.campaign_id = h.campaign_id
left join campaign_network_metrics as t
    on t.segment = h.segment and t.campaign_id = h.campaign_id and t.network = h.network
