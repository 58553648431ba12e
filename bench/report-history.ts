/**
 * A long history written straight into a warehouse for the report benchmark: set-based
 * INSERT ... BY NAME from range() on the warehouse's table names, one snapshot day after
 * another (as nightly syncs add them), inside one publish of the warehouse module. Only
 * table and column names are assumed, so it works on any storage behind those names.
 */
import { publishWarehouse } from '../src/warehouse/publish-warehouse.js';

export interface HistoryShape {
  /** Nightly snapshots, ending at END_DATE. */
  readonly days: number;
  readonly posts: number;
  readonly campaigns: number;
  readonly influencersPerCampaign: number;
  readonly influencers: number;
  readonly documentsPerDay: number;
}

export const END_DATE = '2026-11-20';
const NETWORKS = "['facebook', 'instagram', 'instagram_stories', 'tiktok']";
/** The second segment holds the video networks' share (instagram_stories, tiktok). */
const SEGMENTS = [
  { name: 'all', networks: [0, 1, 2, 3] },
  { name: 'video', networks: [2, 3] },
] as const;

/** Writes the history; `onDay` hears after each snapshot day (progress). */
export async function writeHistory(
  dataDir: string,
  shape: HistoryShape,
  onDay: (day: number) => void = () => undefined,
): Promise<void> {
  await publishWarehouse(dataDir, async (connection) => {
    // Building is not what is measured: let it use the machine.
    await connection.run("set memory_limit = '2GB'");
    await connection.run('set threads = 2');
    for (const statement of entityStatements(shape)) await connection.run(statement);
    for (let d = 0; d < shape.days; d++) {
      for (const statement of dayStatements(shape, d)) await connection.run(statement);
      onDay(d);
    }
  });
}

function entityStatements(s: HistoryShape): string[] {
  const ppc = Math.ceil(s.posts / s.campaigns);
  const seen = `timestamp '${END_DATE} 22:00:00'`;
  return [
    `insert into campaigns by name
     select 'c' || c as campaign_id, 'Campaign ' || c as name, 'w1' as workspace_id, 'active' as status,
            date '2026-01-01' as start_date, ${seen} as first_seen_at, ${seen} as last_seen_at
     from range(${s.campaigns}) t(c)`,
    `insert into influencers by name
     select 'i' || i as influencer_id, 'Influencer ' || i as name, ${seen} as first_seen_at, ${seen} as last_seen_at
     from range(${s.influencers}) t(i)`,
    `insert into posts by name
     select 'c' || (p // ${ppc}) as campaign_id, 'p' || p as post_id,
            'i' || (((p // ${ppc}) * 37 + p % ${s.influencersPerCampaign}) % ${s.influencers}) as influencer_id,
            ${NETWORKS}[p % 4 + 1] as network, ${seen} as first_seen_at, ${seen} as last_seen_at
     from range(${s.posts}) t(p)`,
  ];
}

/** The facts one nightly sync adds for snapshot day `d` (0 = the oldest). */
function dayStatements(s: HistoryShape, d: number): string[] {
  const ppc = Math.ceil(s.posts / s.campaigns);
  const ipc = s.influencersPerCampaign;
  const date = `(date '${END_DATE}' - ${s.days - 1 - d})`;
  const growth = `(1 + ${d} / ${s.days})`;
  const statements: string[] = [];
  for (const segment of SEGMENTS) {
    const share = segment.networks.length / 4;
    const inSegment = `p % 4 in (${segment.networks.join(', ')})`;
    statements.push(
      `insert into post_metrics by name
       select ${date} as snapshot_date, '${segment.name}' as segment, 'c' || (p // ${ppc}) as campaign_id,
              'p' || p as post_id, 'i' || (((p // ${ppc}) * 37 + p % ${ipc}) % ${s.influencers}) as influencer_id,
              ${NETWORKS}[p % 4 + 1] as network, (hash(p) % 5000 * ${growth})::bigint as engagement,
              (hash(p + 1) % 50000)::bigint as reach, hash(p) % 5000 * 0.11 * ${growth} as emv
       from range(${s.posts}) t(p) where ${inSegment}`,
      `insert into campaign_metrics by name
       select ${date} as snapshot_date, '${segment.name}' as segment, 'c' || c as campaign_id,
              (${ppc} * ${share})::bigint as num_posts, ${ipc} as num_influencers,
              (hash(c) % 1000000 * ${share} * ${growth})::bigint as total_engagement,
              (hash(c) % 100) / 1000 as engagement_rate, (hash(c + 7) % 5000000)::bigint as total_reach,
              hash(c) % 1000000 * 0.11 * ${share} * ${growth} as total_emv
       from range(${s.campaigns}) t(c)`,
      `insert into campaign_network_metrics by name
       select ${date} as snapshot_date, '${segment.name}' as segment, 'c' || c as campaign_id,
              ${NETWORKS}[n + 1] as network, (${ppc} / 4)::bigint as num_posts, ${ipc} as num_influencers,
              (hash(c, n) % 250000 * ${growth})::bigint as engagement, (hash(c, n) % 100) / 1000 as engagement_rate,
              (hash(c, n, 7) % 2000000)::bigint as reach, hash(c, n) % 250000 * 0.11 * ${growth} as emv
       from range(${s.campaigns}) t(c), unnest([${segment.networks.join(', ')}]) u(n)`,
      `insert into influencer_campaign_metrics by name
       select ${date} as snapshot_date, '${segment.name}' as segment, 'c' || c as campaign_id,
              'i' || ((c * 37 + k) % ${s.influencers}) as influencer_id, ${Math.ceil(ppc / ipc)} as num_posts,
              (hash(c, k) % 100000 * ${share} * ${growth})::bigint as engagement,
              (hash(c, k) % 100) / 1000 as engagement_rate, (hash(c, k, 7) % 500000)::bigint as reach,
              hash(c, k) % 100000 * 0.11 * ${share} * ${growth} as emv, (hash(c, k, 3) % 20) * 500.0 as budget
       from range(${s.campaigns}) t(c), range(${ipc}) i(k)`,
      `insert into influencer_sales by name
       select ${date} as snapshot_date, '${segment.name}' as segment, 'c' || c as campaign_id,
              'i' || ((c * 37 + k) % ${s.influencers}) as influencer_id,
              ['USD', 'EUR', 'GBP', 'JPY'][(hash(c, k, 5) % 4)::bigint + 1] as currency,
              hash(c, k, 9) % 20000 * ${share} * ${growth} / 10 as amount
       from range(${s.campaigns}) t(c), range(${ipc}) i(k) where hash(c, k, 1) % 10 < 4`,
    );
  }
  statements.push(
    `insert into influencer_profiles by name
     select ${date} as snapshot_date, 'i' || i as influencer_id, hash(i) % 100 as influence,
            hash(i, 2) % 100 as brand_score, (hash(i, 3) % 5000000)::bigint as true_reach,
            (hash(i, 4) % 2000000)::bigint as followers
     from range(${s.influencers}) t(i)`,
    `insert into sync_runs by name
     select 'run-' || ${d} as run_id, ${date} + time '21:30:00' as started_at, ${date} + time '21:50:00' as finished_at,
            'succeeded' as status, ${date} as snapshot_date, 5000 as requests, 0 as retries, 0 as throttled,
            ${s.posts * 2} as rows_written`,
    `insert into stream_documents by name
     select 'h' || (n % 3) as hook_id, 100 + n % 3 as search_id,
            ['social', 'editorial', 'broadcast'][n % 3 + 1] as search_type, 'd${d}-' || n as document_id,
            ${date} + to_seconds(n * 40) as published_date, ${date} + to_seconds(n * 40 + 60) as indexed_date,
            ${date} + to_seconds(n * 40 + 120) as received_at, true as valid_schema, '{}' as document
     from range(${s.documentsPerDay}) t(n)`,
    `insert into stream_deliveries by name
     select ${d} * 100000 + n as delivery_id, 'h' || (n % 3) as hook_id, ${date} + to_seconds(n * 400 + 120) as received_at,
            10 as documents, 20000 as bytes
     from range(${Math.ceil(s.documentsPerDay / 10)}) t(n)`,
  );
  return statements;
}
