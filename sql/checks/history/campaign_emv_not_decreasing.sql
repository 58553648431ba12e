-- campaign_emv_not_decreasing: a campaign's `total_emv` is not lower than on the previous
-- snapshot, beyond emv_tolerance() of it (default 1%) and the half cent of rounding of
-- each figure. EMV follows engagement, which accumulates.
-- Level: campaign (entity_id NULL). expected: the previous total; actual: today's.
-- Not compared: a NULL total on either day.
select
    segment,
    campaign_id,
    null::varchar as entity_id,
    previous_total_emv as expected,
    total_emv as actual,
    total_emv >= previous_total_emv * (1 - emv_tolerance()) - 0.01 as ok
from history_campaign_pairs
