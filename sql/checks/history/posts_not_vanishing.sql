-- posts_not_vanishing: every post of a campaign on the previous snapshot is still among its
-- posts (the staged post_metrics), for the campaigns the staged snapshot has.
-- Level: post (entity_id the post). expected: the post's previous engagement; actual: its
-- engagement today, NULL when it vanished.
select
    h.segment,
    h.campaign_id,
    h.post_id as entity_id,
    h.engagement::double as expected,
    t.engagement::double as actual,
    t.post_id is not null as ok
from history_posts as h
join history_staged_campaigns as c on c.segment = h.segment and c.campaign_id = h.campaign_id
left join post_metrics as t
    on t.segment = h.segment and t.campaign_id = h.campaign_id and t.post_id = h.post_id
