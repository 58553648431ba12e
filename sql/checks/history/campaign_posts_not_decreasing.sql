-- campaign_posts_not_decreasing: a campaign's `num_posts` is not lower than on the previous
-- snapshot. Posts only accumulate over a campaign's life; a lower count means posts
-- vanished upstream (or were removed: a warning, never a failed run).
-- Level: campaign (entity_id NULL). Exact: a count. expected: the previous count; actual:
-- today's. Not compared: a NULL count on either day.
select
    segment,
    campaign_id,
    null::varchar as entity_id,
    previous_num_posts::double as expected,
    num_posts::double as actual,
    num_posts >= previous_num_posts as ok
from history_campaign_pairs
