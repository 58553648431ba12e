/** Shared set-up of the extractor's tests: a simulator on loopback, a temp data dir, a quiet sync. */
import pino from 'pino';
import { DEFAULT_SCHEDULE, type SyncConfig } from '../../src/config/sync-config.js';
import { runSync, type SyncDeps, type SyncSummary } from '../../src/extract/run-sync.js';
import {
  type RunningSimulator,
  type SimulatorInput,
  startSimulator,
} from '../../src/simulator/start-simulator.js';
import { queryReadOnly } from '../../src/warehouse/read/query-read-only.js';
import { tempDir } from './temp-dir.js';

/** 22:30 UTC: after the refresh window, so the snapshot date is that day. */
export const SIM_START = new Date('2026-11-20T22:30:00Z');
export const SNAPSHOT = '2026-11-20';
export const SMALL = {
  workspaces: 2,
  tagsPerWorkspace: 3,
  campaigns: 5,
  postsPerCampaign: 25,
  influencersPerCampaign: 8,
};

export const quietLogger = pino({ level: 'silent' });

export function tempDataDir(): string {
  return tempDir('cw-extract-');
}

export function startSim(options: SimulatorInput = {}): Promise<RunningSimulator> {
  return startSimulator({ seed: 11, size: SMALL, startTime: SIM_START, ...options });
}

export function syncConfig(
  sim: RunningSimulator,
  dataDir: string,
  overrides: Partial<SyncConfig> = {},
): SyncConfig {
  return {
    baseUrl: sim.url,
    apiKey: 'sim-key',
    dataDir,
    force: false,
    rps: 500,
    concurrency: 4,
    pageSize: 10,
    maxRetries: 8,
    timeoutMs: 5_000,
    campaigns: [],
    segments: [],
    schedule: DEFAULT_SCHEDULE,
    ...(sim.ca ? { ca: sim.ca } : {}),
    ...overrides,
  };
}

export function sync(
  sim: RunningSimulator,
  config: SyncConfig,
  deps: Pick<SyncDeps, 'lakeUpkeep'> = {},
): Promise<SyncSummary> {
  return runSync(config, { logger: quietLogger, now: () => sim.clock.now(), ...deps });
}

export async function rows(
  dataDir: string,
  sql: string,
  params?: (string | number)[],
): Promise<Record<string, unknown>[]> {
  const result = await queryReadOnly(dataDir, sql, params);
  return result.rows.map((row) => Object.fromEntries(result.columns.map((c, i) => [c, row[i]])));
}

const RUN_DEPENDENT = new Set(['first_seen_at', 'last_seen_at', 'run_id']);

/** Per table: row count and an order-independent digest of every value that does not depend on the run. */
export async function checksums(dataDir: string): Promise<Record<string, string>> {
  const columns = await rows(
    dataDir,
    "select table_name, string_agg(column_name, ',' order by column_name) as cols from information_schema.columns where table_schema = 'main' and table_name in (select view_name from duckdb_views() where schema_name = 'main' and sql ilike '%read_parquet(%') and table_name not in ('sync_runs', 'schema_migrations') and not starts_with(table_name, 'latest_') group by table_name order by table_name",
  );
  const out: Record<string, string> = {};
  for (const { table_name, cols } of columns) {
    const kept = String(cols)
      .split(',')
      .filter((c) => !RUN_DEPENDENT.has(c))
      .map((c) => `"${c}"`);
    const [row] = await rows(
      dataDir,
      `select count(*)::varchar || ':' || coalesce(md5(string_agg(r, '|' order by r)), '') as digest from (select concat_ws('~', ${kept.map((c) => `coalesce(${c}::varchar, 'NULL')`).join(', ')}) as r from "${table_name}")`,
    );
    out[String(table_name)] = String(row!.digest);
  }
  return out;
}
