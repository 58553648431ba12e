-- post_engagement_not_decreasing: a post's engagement did not fall by more than
-- post_engagement_tolerance() of its previous figure (default 10%: unlikes and removed spam
-- happen, and a small post's few interactions move a lot).
-- Level: post (entity_id the post). expected: the previous engagement; actual: today's.
-- Not compared: a post missing on either day (posts_not_vanishing), a NULL engagement.
select
    h.segment,
    h.campaign_id,
    h.post_id as entity_id,
    h.engagement::double as expected,
    t.engagement::double as actual,
    t.engagement >= h.engagement * (1 - post_engagement_tolerance()) as ok
from history_posts as h
join post_metrics as t
    on t.segment = h.segment and t.campaign_id = h.campaign_id and t.post_id = h.post_id
