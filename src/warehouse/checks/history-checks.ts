/**
 * The history checks' inputs (sql/checks/history/): the previous snapshots of each segment
 * of a run, read from the lake's files holding the dates they need (never the whole
 * history) into temp tables of the staging connection, and the tolerances as macros.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { sqlString } from '../duckdb/warehouse-paths.js';
import { factRows, factVersion, fileHolding, lakePath, recentFactDates } from '../lake/index.js';
import type { HistorySettings } from '../types.js';

/**
 * Previous snapshots read for the anomaly band: 15, so up to 14 daily changes (the anomaly
 * check's "last 14 daily changes"); the other checks read only the latest of them.
 */
export const HISTORY_SNAPSHOTS = 15;

/** What the runner prepared: per segment, the previous snapshot, and every file read. */
export interface PreparedHistory {
  readonly previous: ReadonlyMap<string, string>;
  readonly files: readonly string[];
}

const TABLES = {
  history_campaigns: {
    lake: 'campaign_metrics',
    columns: 'campaign_id varchar, num_posts bigint, total_engagement bigint, total_emv double',
    select: 'campaign_id, num_posts, total_engagement, total_emv',
  },
  history_networks: {
    lake: 'campaign_network_metrics',
    columns: 'campaign_id varchar, network varchar, num_posts bigint, engagement bigint',
    select: 'campaign_id, network, num_posts, engagement',
  },
  history_posts: {
    lake: 'post_metrics',
    columns: 'campaign_id varchar, post_id varchar, engagement bigint',
    select: 'campaign_id, post_id, engagement',
  },
} as const;

/**
 * Creates history_previous, history_campaigns, history_networks and history_posts (see
 * sql/checks/history/_prepare.sql) and the tolerance macros on `c`, from the lake of
 * `dataDir`: for each segment, campaign_metrics of its last HISTORY_SNAPSHOTS snapshots
 * before `snapshotDate`, and the networks and posts of the latest of them. Files are read
 * by their resolved path in the immutable version store, so a publish swapping a link
 * meanwhile changes nothing (a replaced version stays for the retention period).
 */
export async function prepareHistory(
  c: DuckDBConnection,
  dataDir: string,
  snapshotDate: string,
  segments: readonly string[],
  settings: HistorySettings,
): Promise<PreparedHistory> {
  const lake = lakePath(dataDir);
  await createMacros(c, settings);
  await c.run('create or replace temp table history_previous (segment varchar, snapshot_date date)');
  await c.run(
    `create or replace temp table history_campaigns (segment varchar, snapshot_date date, ${TABLES.history_campaigns.columns})`,
  );
  const previous = new Map<string, string>();
  const files: string[] = [];
  // The previous snapshot's posts stay in their files (a view): the checks' joins stream
  // them and spill past the staging's small memory limit, a million posts too. Its networks
  // (one row per campaign and network) are read once into a temp table.
  const latestFiles: LatestFiles = { history_networks: [], history_posts: [] };
  const campaignDates = await recentFactDates(
    c,
    lake,
    'campaign_metrics',
    snapshotDate,
    segments,
    HISTORY_SNAPSHOTS,
  );
  // Each table's live files, read once for every segment.
  const latestTables = LATEST_ONLY.map(
    (name) => [name, factVersion(lake, TABLES[name].lake)?.files ?? []] as const,
  );
  for (const segment of segments) {
    const dates = campaignDates.get(segment) ?? [];
    const latest = dates[0];
    if (!latest) continue;
    previous.set(segment, latest.date);
    await loadCampaigns(c, segment, dates, files);
    for (const [name, tableFiles] of latestTables) {
      const file = fileHolding(tableFiles, latest.date, segment);
      if (!file) continue; // the segment had no rows in that table that day
      files.push(file);
      latestFiles[name].push(
        `select ${sqlString(segment)} as segment, ${TABLES[name].select} from ${factRows(file, latest.date)}`,
      );
    }
  }
  await createLatest(c, latestFiles);
  return { previous, files };
}

/** The tables of which only the previous snapshot is read (as views over its files). */
const LATEST_ONLY = ['history_networks', 'history_posts'] as const;
type LatestFiles = Record<(typeof LATEST_ONLY)[number], string[]>;

/** The tolerances as macros the checks' SQL calls (engagement_tolerance() ...). */
async function createMacros(c: DuckDBConnection, settings: HistorySettings): Promise<void> {
  const macros: [string, number][] = [
    ['engagement_tolerance', settings.engagementTolerance],
    ['emv_tolerance', settings.emvTolerance],
    ['post_engagement_tolerance', settings.postEngagementTolerance],
    ['anomaly_width', settings.anomalyWidth],
    ['anomaly_min_change', settings.anomalyMinChange],
    ['anomaly_min_posts', settings.anomalyMinPosts],
  ];
  for (const [name, value] of macros)
    await c.run(`create or replace temp macro ${name}() as ${Number(value)}::double`);
}

/** A segment's previous snapshot and campaign figures of its last snapshots (`dates`, latest first). */
async function loadCampaigns(
  c: DuckDBConnection,
  segment: string,
  dates: readonly { date: string; file: string }[],
  files: string[],
): Promise<void> {
  await c.run('insert into history_previous values ($1, $2::date)', [segment, dates[0]!.date]);
  for (const { file } of dates) if (!files.includes(file)) files.push(file); // a month file holds several of the dates
  await c.run(
    `insert into history_campaigns ${dates
      .map(
        ({ date, file }) =>
          `select ${sqlString(segment)}, ${sqlString(date)}::date, ${TABLES.history_campaigns.select} from ${factRows(file, date)}`,
      )
      .join(' union all ')}`,
  );
}

/** How each of LATEST_ONLY is kept: the posts, which may be millions, are read where they are. */
const LATEST_KIND: Record<(typeof LATEST_ONLY)[number], 'table' | 'view'> = {
  history_networks: 'table',
  history_posts: 'view',
};

/**
 * history_networks (a temp table) and history_posts (a view) of the previous snapshot's
 * files (typed when there are none).
 */
async function createLatest(c: DuckDBConnection, latestFiles: LatestFiles): Promise<void> {
  for (const name of LATEST_ONLY) {
    const empty = `select null::varchar as segment, ${TABLES[name].columns.replace(/(\w+) (\w+)/g, 'null::$2 as $1')} where false`;
    await c.run(
      `create or replace temp ${LATEST_KIND[name]} ${name} as ${[...latestFiles[name], empty].join('\nunion all ')}`,
    );
  }
}
