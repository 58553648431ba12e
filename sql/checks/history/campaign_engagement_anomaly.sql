-- campaign_engagement_anomaly: the day's change in a campaign's `total_engagement` lies
-- within a robust band learned from its past daily changes (the last HISTORY_SNAPSHOTS
-- snapshots: up to 14 changes): median ± anomaly_width() × 1.4826 × MAD (the median
-- absolute deviation, scaled to a standard deviation for normal data), and never narrower
-- than ± anomaly_min_change() of the previous total (default 50%).
-- Why median and MAD: a campaign's daily changes are skewed (a viral post's day) and the
-- history itself may hold an earlier anomaly; the median and MAD ignore a few outliers
-- where a mean and standard deviation would widen to cover them. Why the floor: a finished
-- campaign's changes are all about 0 (MAD 0), where a few unlikes would leave the band, and
-- one viral post can add half a campaign's engagement in a day: a real change, not a sign
-- of trouble upstream (a tenfold jump adds 900%).
-- A change over missed nights counts per day (divided by the days between snapshots).
-- Compared: campaigns with at least 7 past changes from a non-zero total (a campaign's
-- first posts are its launch, not an anomaly) and at least anomaly_min_posts() posts on the
-- previous snapshot (default 20: a campaign of a handful of posts moves by whole posts, one
-- viral post doubling it overnight); else not compared (the check skipped if none is).
-- Level: campaign (entity_id NULL). expected: the previous total; actual: today's.
with

series as (

    select segment, campaign_id, snapshot_date, num_posts, total_engagement from history_campaigns
    union all
    select m.segment, m.campaign_id, s.today, m.num_posts, m.total_engagement
    from campaign_metrics as m
    cross join (select max(snapshot_date) as today from campaign_metrics) as s

),

changes as (

    select
        segment,
        campaign_id,
        snapshot_date,
        lag(total_engagement) over w as previous,
        lag(num_posts) over w as previous_posts,
        total_engagement as current,
        (total_engagement - lag(total_engagement) over w)
            / date_diff('day', lag(snapshot_date) over w, snapshot_date) as change
    from series
    window w as (partition by segment, campaign_id order by snapshot_date)

),

today as (

    select * from changes where snapshot_date = (select max(snapshot_date) from campaign_metrics)

),

past as (

    select segment, campaign_id, change
    from changes
    where snapshot_date < (select max(snapshot_date) from campaign_metrics)
        and previous > 0 and change is not null

),

centre as (

    select segment, campaign_id, count(*) as changes, median(change) as median
    from past
    group by all

),

band as (

    select c.segment, c.campaign_id, c.changes, c.median, median(abs(p.change - c.median)) as mad
    from centre as c
    join past as p on p.segment = c.segment and p.campaign_id = c.campaign_id
    group by all

)

select
    t.segment,
    t.campaign_id,
    null::varchar as entity_id,
    t.previous::double as expected,
    t.current::double as actual,
    abs(t.change - b.median)
        <= greatest(anomaly_width() * 1.4826 * b.mad, anomaly_min_change() * t.previous) as ok
from today as t
join band as b on b.segment = t.segment and b.campaign_id = t.campaign_id
where b.changes >= 7 and t.change is not null and t.previous > 0 and t.previous_posts >= anomaly_min_posts()
