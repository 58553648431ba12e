import { applyMigrations } from '../src/warehouse/duckdb/apply-migrations.js';
import { openWriter, STAGING_SETTINGS } from '../src/warehouse/duckdb/open-database.js';
import { sqlString } from '../src/warehouse/duckdb/warehouse-paths.js';

/** The account of the history benchmark: 170k posts, as the issue measured. */
export const ACCOUNT = {
  campaigns: 200,
  postsPerCampaign: 850,
  influencersPerCampaign: 60,
  influencers: 4_000,
};

const NETWORKS = "['instagram', 'tiktok', 'facebook', 'instagram_stories']";

/**
 * Writes a staging file of one day of the account, as a sync would stage it: entities (seen
 * at `date` 19:00) and every fact table, values varying with the day. SQL-generated: a
 * sync of 170k posts against the simulator would take the benchmark's whole budget.
 */
export async function writeStagedDay(path: string, date: string): Promise<void> {
  const db = await openWriter(path, { ...STAGING_SETTINGS, memory_limit: '512MB', threads: '2' });
  const { campaigns: C, postsPerCampaign: P, influencersPerCampaign: I, influencers: N } = ACCOUNT;
  const d = sqlString(date);
  const seen = sqlString(`${date} 19:00:00`);
  const day = `(epoch(${d}::date) / 86400)::bigint`;
  const statements = [
    `insert into workspaces select 'w' || i, 'Workspace ' || i, null, timestamp '2025-01-01', '{}', ${seen}, ${seen} from range(3) t(i)`,
    `insert into campaigns select 'c' || i, 'Campaign ' || i, 'w' || (i % 3), 'active', date '2025-06-01', null,
       json_object('id', 'c' || i, 'brief', repeat('b', 200)), ${seen}, ${seen} from range(${C}) t(i)`,
    `insert into influencers select 'i' || i, 'Influencer ' || i, json_object('id', 'i' || i, 'bio', repeat('x', 120)), ${seen}, ${seen} from range(${N}) t(i)`,
    `insert into influencer_tags select 't' || i, 'Tag ' || i, 'w' || (i % 3), '{}', ${seen}, ${seen} from range(30) t(i)`,
    `insert into posts select 'c' || (i // ${P}), 'p' || i, 'i' || (hash(i) % ${N}), ${NETWORKS}[1 + i % 4],
       'https://social.example/p' || i, timestamp '2025-06-01' + to_seconds(i), json_object('id', 'p' || i, 'caption', repeat('c', 100 + i % 100)), ${seen}, ${seen}
       from range(${C * P}) t(i)`,
    `insert into post_metrics select ${d}, 'all', 'c' || (i // ${P}), 'p' || i, 'i' || (hash(i) % ${N}), ${NETWORKS}[1 + i % 4],
       (hash(i, ${day}) % 5000)::bigint, (hash(i + 1, ${day}) % 90000)::bigint, (hash(i + 2, ${day}) % 100000) / 100.0
       from range(${C * P}) t(i)`,
    `insert into post_stats select ${d}, 'all', 'c' || (i // ${P}), 'p' || i, s, (hash(i, s, ${day}) % 10000)::double
       from range(${C * P}) t(i), unnest(['likes', 'comments', 'shares', 'views']) u(s)`,
    `insert into campaign_metrics select ${d}, 'all', 'c' || i, ${P}, ${I}, (hash(i, ${day}) % 10000000)::bigint, 0.031,
       (hash(i + 1, ${day}) % 50000000)::bigint, (hash(i + 2, ${day}) % 1000000) / 10.0 from range(${C}) t(i)`,
    // With its campaign's totals, as normalization gives them (after campaign_metrics).
    `insert into campaign_network_metrics
       select n.*, sum(n.num_posts) over w, sum(n.engagement) over w, sum(n.emv) over w, m.total_reach
         from (select ${d} as snapshot_date, 'all' as segment, 'c' || i as campaign_id, n as network, ${P} // 4 as num_posts,
                      ${I} // 4, (hash(i, n, ${day}) % 3000000)::bigint as engagement, 0.03, (hash(i, n) % 20000000)::bigint,
                      (hash(i, n, ${day}) % 300000) / 10.0 as emv
                 from range(${C}) t(i), unnest(${NETWORKS}) u(n)) n
         left join campaign_metrics m using (snapshot_date, segment, campaign_id)
       window w as (partition by n.snapshot_date, n.segment, n.campaign_id)`,
    `insert into campaign_network_stats select ${d}, 'all', 'c' || i, n, s, (hash(i, n, s, ${day}) % 1000000)::double
       from range(${C}) t(i), unnest(${NETWORKS}) u(n),
            unnest(['likes', 'comments', 'shares', 'views', 'saved', 'impressions', 'reach', 'exits']) v(s)`,
    `insert into influencer_campaign_metrics select ${d}, 'all', 'c' || (i // ${I}), 'i' || (hash(i) % ${N}), 14,
       (hash(i, ${day}) % 80000)::bigint, 0.04, (hash(i, 1) % 900000)::bigint, (hash(i, 2, ${day}) % 100000) / 10.0, 1000.0 + i % 500
       from range(${C * I}) t(i) qualify row_number() over (partition by i // ${I}, hash(i) % ${N}) = 1`,
    `insert into influencer_sales select snapshot_date, segment, campaign_id, influencer_id, 'EUR', budget * 1.7
       from influencer_campaign_metrics where hash(influencer_id) % 3 = 0`,
    `insert into influencer_stats select snapshot_date, segment, campaign_id, influencer_id, s, (hash(influencer_id, s) % 10000)::double
       from influencer_campaign_metrics, unnest(['likes', 'comments', 'shares', 'views']) u(s)`,
    `insert into influencer_profiles select ${d}, 'i' || i, (hash(i) % 100) / 10.0, (hash(i, 1) % 100) / 10.0,
       (hash(i, 2) % 5000000)::bigint, (hash(i, 3, ${day}) % 5000000)::bigint from range(${N}) t(i)`,
    `insert into influencer_network_profiles select ${d}, 'i' || i, n, 'prof' || i, 'user' || i, (hash(i, n) % 900000)::bigint, 120.5,
       (hash(i, n, 1) % 900000)::bigint from range(${N}) t(i), unnest(['instagram', 'tiktok']) u(n)`,
    `insert into influencer_tag_assignments select distinct ${d}, campaign_id, influencer_id, 't' || (hash(influencer_id) % 30)
       from influencer_campaign_metrics`,
  ];
  try {
    await applyMigrations(db.connection);
    for (const statement of statements) await db.connection.run(statement);
    await db.connection.run('checkpoint');
  } finally {
    db.close();
  }
}
