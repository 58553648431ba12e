-- Prepared once before the data checks of a sync (src/warehouse/run-data-checks.ts), on
-- the run's staging file; every check then reads these instead of the posts again.
-- The runner has created check_segments(segment, sources): the run's segments, `sources`
-- the comma-joined network filter of the segment, NULL when it has none.
-- No reach figure is read here or in any check: reach never adds up across posts,
-- networks or levels (api-v3.md, "Rules on reach" 1 to 4), so no rule compares it.

-- Money (EMV): the API reports it rounded to the cent at every level, so a total may differ
-- from the sum of its rounded parts by half a cent per part plus half a cent of its own.
create or replace temp macro money_agrees(expected, actual, parts) as
    abs(expected - actual) <= 0.005 * (parts + 1) + 1e-9;

-- Rates: an average recomputed from rounded averages; 0.5% of the figure (plus 1e-6, the
-- simulator's rounding) absorbs rounding to a few significant digits, whatever the unit
-- (api-v3.md: "Units and numeric formats of the metric values: not shown").
create or replace temp macro rate_agrees(expected, actual) as
    abs(expected - actual) <= 0.005 * abs(expected) + 1e-6;

-- Whether a network's figures in the campaign detail cover the same posts as the posts and
-- influencers endpoints: always without a `sources` filter; with one, only for the
-- networks it names (api-v3.md, "Filters": `sources` applies to the posts and influencers
-- endpoints, not to the campaign detail, which may then report every network).
create or replace temp macro network_in_view(sources, network) as
    sources is null or list_contains(string_split(sources, ','), network);

-- The staged posts' totals per (segment, campaign, network, influencer), one pass. A total
-- is comparable only when every post reported its figure (`*_known` = posts).
create or replace temp table check_post_totals as
select
    segment,
    campaign_id,
    network,
    influencer_id,
    count(*) as posts,
    sum(engagement) as engagement,
    count(engagement) as engagement_known,
    sum(emv) as emv,
    count(emv) as emv_known
from post_metrics
group by all;
