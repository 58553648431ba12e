-- campaign_engagement_not_decreasing: a campaign's `total_engagement` is not lower than on
-- the previous snapshot, beyond engagement_tolerance() of it (default 1%: unlikes and
-- removed spam take a little back). Engagement accumulates as the posts collect interactions.
-- Level: campaign (entity_id NULL). expected: the previous total; actual: today's.
-- Not compared: a NULL total on either day.
select
    segment,
    campaign_id,
    null::varchar as entity_id,
    previous_total_engagement::double as expected,
    total_engagement::double as actual,
    total_engagement >= previous_total_engagement * (1 - engagement_tolerance()) as ok
from history_campaign_pairs
