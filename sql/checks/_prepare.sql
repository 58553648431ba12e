-- Prepared once before the data checks of a sync (src/warehouse/checks/run-data-checks.ts), on
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

-- The staged posts' totals, in one pass over them, per campaign, per campaign and network,
-- and per campaign and influencer (`level`). A total is comparable only when every post
-- reported its figure (`*_complete`); `influencers` counts distinct influencers who posted.
create or replace temp table check_posts as
select
    case grouping(network, influencer_id) when 3 then 'campaign' when 1 then 'network' else 'influencer' end
        as level,
    segment,
    campaign_id,
    network,
    influencer_id,
    count(*) as posts,
    sum(engagement) as engagement,
    count(engagement) = count(*) as engagement_complete,
    sum(emv) as emv,
    count(emv) = count(*) as emv_complete,
    count(distinct influencer_id) as influencers
from post_metrics
group by grouping sets (
    (segment, campaign_id),
    (segment, campaign_id, network),
    (segment, campaign_id, influencer_id)
);

-- What the checks compare, one temp table per level: the API's figure beside the posts'
-- totals (posts, posts_engagement, posts_emv: 0 without posts; *_complete;
-- posting_influencers). Tables, not views: each is read by several checks, twice each (their
-- counts, then their failing rows), and as views their joins ran again for every read (the
-- rule checks of a demo-size sync took 2 to 3 times as long). Each holds one row per
-- campaign, network or listed influencer: no more than check_posts.

-- Campaign level, where the detail covers the posts' view: segments without `sources`.
create or replace temp table check_campaigns as
with

listed as (

    select segment, campaign_id, count(distinct influencer_id) as influencers
    from influencer_campaign_metrics
    group by all

)

select
    m.segment,
    m.campaign_id,
    m.num_posts,
    m.num_influencers,
    m.total_engagement,
    m.total_emv,
    coalesce(p.posts, 0) as posts,
    coalesce(p.engagement, 0) as posts_engagement,
    coalesce(p.engagement_complete, true) as posts_engagement_complete,
    coalesce(p.emv, 0) as posts_emv,
    coalesce(p.emv_complete, true) as posts_emv_complete,
    coalesce(p.influencers, 0) as posting_influencers,
    coalesce(l.influencers, 0) as listed_influencers
from campaign_metrics as m
join check_segments as s on s.segment = m.segment
left join check_posts as p
    on p.level = 'campaign' and p.segment = m.segment and p.campaign_id = m.campaign_id
left join listed as l on l.segment = m.segment and l.campaign_id = m.campaign_id
where s.sources is null;

-- Network level: each `sources` entry and each network the posts are on (`listed` false
-- without an entry, whose figures then count as 0), in view (network_in_view).
create or replace temp table check_networks as
with

posts as (

    select * from check_posts where level = 'network' and network is not null

),

networks as (

    select
        coalesce(n.segment, p.segment) as segment,
        coalesce(n.campaign_id, p.campaign_id) as campaign_id,
        coalesce(n.network, p.network) as network,
        n.campaign_id is not null as listed,
        case when n.campaign_id is null then 0 else n.num_posts end as num_posts,
        n.num_influencers,
        case when n.campaign_id is null then 0 else n.engagement end as engagement,
        case when n.campaign_id is null then 0 else n.emv end as emv,
        coalesce(p.posts, 0) as posts,
        coalesce(p.engagement, 0) as posts_engagement,
        coalesce(p.engagement_complete, true) as posts_engagement_complete,
        coalesce(p.emv, 0) as posts_emv,
        coalesce(p.emv_complete, true) as posts_emv_complete,
        coalesce(p.influencers, 0) as posting_influencers
    from campaign_network_metrics as n
    full join posts as p
        on p.segment = n.segment and p.campaign_id = n.campaign_id and p.network = n.network

)

select n.*, m.num_influencers as campaign_influencers
from networks as n
join check_segments as s on s.segment = n.segment
left join campaign_metrics as m on m.segment = n.segment and m.campaign_id = n.campaign_id
where network_in_view(s.sources, n.network);

-- Influencer level: each listed influencer's `campaign_metrics` (every segment: both
-- endpoints take both filters).
create or replace temp table check_influencers as
select
    i.segment,
    i.campaign_id,
    i.influencer_id,
    i.num_posts,
    i.engagement,
    i.emv,
    coalesce(p.posts, 0) as posts,
    coalesce(p.engagement, 0) as posts_engagement,
    coalesce(p.engagement_complete, true) as posts_engagement_complete,
    coalesce(p.emv, 0) as posts_emv,
    coalesce(p.emv_complete, true) as posts_emv_complete
from influencer_campaign_metrics as i
left join check_posts as p
    on p.level = 'influencer'
    and p.segment = i.segment
    and p.campaign_id = i.campaign_id
    and p.influencer_id = i.influencer_id;

-- The campaign detail alone: its `metrics` beside the sums over its `sources` entries
-- (every segment: both come from one response). `networks_*` NULL without entries.
create or replace temp table check_detail as
with

networks as (

    select
        segment,
        campaign_id,
        count(*) as networks,
        sum(num_posts) as num_posts,
        count(num_posts) = count(*) as num_posts_complete,
        sum(engagement) as engagement,
        count(engagement) = count(*) as engagement_complete,
        sum(emv) as emv,
        count(emv) = count(*) as emv_complete,
        sum(num_posts * engagement_rate) / nullif(sum(num_posts), 0) as weighted_rate,
        bool_and(num_posts is not null and (num_posts = 0 or engagement_rate is not null)) as rate_complete
    from campaign_network_metrics
    group by all

)

select
    m.segment,
    m.campaign_id,
    m.num_posts,
    m.total_engagement,
    m.total_emv,
    m.engagement_rate,
    coalesce(n.networks, 0) as networks,
    coalesce(n.num_posts, 0) as networks_num_posts,
    coalesce(n.num_posts_complete, true) as networks_num_posts_complete,
    coalesce(n.engagement, 0) as networks_engagement,
    coalesce(n.engagement_complete, true) as networks_engagement_complete,
    coalesce(n.emv, 0) as networks_emv,
    coalesce(n.emv_complete, true) as networks_emv_complete,
    n.weighted_rate as networks_weighted_rate,
    coalesce(n.rate_complete, false) as networks_rate_complete
from campaign_metrics as m
left join networks as n on n.segment = m.segment and n.campaign_id = m.campaign_id;
