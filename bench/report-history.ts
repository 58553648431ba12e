/**
 * A long history written for the report benchmark as nightly syncs and the sink would write
 * it: every day's facts are generated with SQL (INSERT ... BY NAME from range() on the
 * table names) into one staging file, then each day is published by the warehouse module's
 * own publishSync (one lake partition per table and day), and each day's streamed documents
 * by publishStream. Only table and column names are assumed.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Row } from '../src/normalize/rows.js';
import { applyMigrations } from '../src/warehouse/duckdb/apply-migrations.js';
import { openWriter, STAGING_SETTINGS } from '../src/warehouse/duckdb/open-database.js';
import { publishStream } from '../src/warehouse/publish-stream.js';
import { publishSync } from '../src/warehouse/publish-sync.js';
import { benchSyncRun } from './lake-history.js';

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

/** Writes the history; `onDay` hears after each snapshot day is published (progress). */
export async function writeHistory(
  dataDir: string,
  shape: HistoryShape,
  onDay: (day: number) => void = () => undefined,
): Promise<void> {
  const stagingPath = join(dataDir, 'history-staging.duckdb');
  // Building is not what is measured: let it use the machine.
  const db = await openWriter(stagingPath, { ...STAGING_SETTINGS, memory_limit: '2GB', threads: '2' });
  try {
    await applyMigrations(db.connection);
    for (const statement of entityStatements(shape)) await db.connection.run(statement);
    for (let d = 0; d < shape.days; d++)
      for (const statement of dayStatements(shape, d)) await db.connection.run(statement);
    await db.connection.run('checkpoint');
  } finally {
    db.close();
  }
  const segments = SEGMENTS.map((segment) => segment.name);
  for (let d = 0; d < shape.days; d++) {
    const date = dayOf(shape, d);
    await publishSync(dataDir, {
      stagingPath,
      snapshotDate: date,
      segments,
      run: benchSyncRun(date, `run-${date}`, shape.posts * 2),
    });
    await publishStream(dataDir, streamDay(shape, d, date));
    onDay(d);
  }
  rmSync(stagingPath, { force: true });
  rmSync(`${stagingPath}.wal`, { force: true });
}

function dayOf(s: HistoryShape, d: number): string {
  return new Date(Date.parse(`${END_DATE}T00:00:00Z`) - (s.days - 1 - d) * 86_400_000)
    .toISOString()
    .slice(0, 10);
}

/** One day of pushed documents of three hooks and search types, ten a delivery. */
function streamDay(s: HistoryShape, d: number, date: string) {
  const at = (seconds: number) => new Date(Date.parse(`${date}T00:00:00Z`) + seconds * 1000).toISOString();
  const types = ['social', 'editorial', 'broadcast'];
  const documents: Row[] = [];
  for (let n = 0; n < s.documentsPerDay; n++)
    documents.push({
      hook_id: `h${n % 3}`,
      search_id: 100 + (n % 3),
      search_type: types[n % 3]!,
      document_id: `d${d}-${n}`,
      published_date: at(n * 40),
      indexed_date: at(n * 40 + 60),
      received_at: at(n * 40 + 120),
      valid_schema: true,
      document: '{}',
    });
  const deliveries: Row[] = [];
  for (let n = 0; n < Math.ceil(s.documentsPerDay / 10); n++)
    deliveries.push({
      delivery_id: d * 100_000 + n,
      hook_id: `h${n % 3}`,
      received_at: at(n * 400 + 120),
      documents: 10,
      bytes: 20_000,
    });
  return { documents, deliveries, hooks: [] };
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
  );
  return statements;
}
