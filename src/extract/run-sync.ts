/**
 * One extraction: workspaces, tags, the campaign list, then for every (segment, campaign)
 * unit the campaign detail, all posts and all influencers, page by page into a private
 * staging file; then one atomic publish. Units are checkpointed, so a run that dies is
 * resumed by the next run of the same snapshot date.
 */
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { ALL_SEGMENT, type Segment } from '../../pipelines/campaign-pipeline.js';
import type { ApiClient, ApiEvent, RawRecord } from '../api/types.js';
import type { SyncConfig } from '../config/sync-config.js';
import { RefusedValues } from '../normalize/refused-values.js';
import { describeSource, loadSourceRecord, saveSourceRecord } from '../state/source-record.js';
import { openStateDb, openStateDbReadOnly, STATE_DB_FILE, type StateDb } from '../state/state-db.js';
import { firstLine } from '../util/first-line.js';
import type { Logger } from '../util/logger.js';
import { noSpaceMessage } from '../util/no-space.js';
import { USAGE_EXIT_CODE, UserError } from '../util/user-error.js';
import type { PublishResult, StagingWriter, SyncRunRecord } from '../warehouse/index.js';
import {
  maintainLake,
  openStaging,
  publishRunRecord,
  publishSync,
  repairedTextMessage,
  takeRepairedText,
} from '../warehouse/index.js';
import { checkBeforePublish, type DataCheckSummary } from './check-before-publish.js';
import type { ExtractContext } from './extract-context.js';
import { extractGlobals } from './extract-globals.js';
import { extractUnits, planUnits, type UnitPlan } from './extract-units.js';
import {
  compareSource,
  type FirstContact,
  firstContact,
  listCampaigns,
  refuseOtherSource,
  refuseUnknownCampaigns,
} from './first-contact.js';
import { type RunCounters, RunRegistry, type RunRow } from './run-registry.js';
import { segmentWarnings } from './segment-warnings.js';
import { resolveSnapshotDate } from './snapshot-date.js';

export interface SyncProgress {
  readonly snapshotDate: string;
  readonly unitsDone: number;
  readonly unitsTotal: number;
  readonly requests: number;
  readonly throttled: number;
  readonly throttleWaitMs: number;
  readonly overloadWaitMs: number;
  readonly rateLimitWaitMs: number;
  /** The throttle's rate now (requests/s) and why it is that. */
  readonly rateRps: number;
  readonly rateReason: string;
  readonly elapsedMs: number;
}

export interface SyncDeps {
  readonly logger: Logger;
  now(): Date;
  /** Tests inject a client; by default one is created from the config. */
  readonly client?: ApiClient;
  readonly onProgress?: (progress: SyncProgress) => void;
  readonly onApiEvent?: (event: ApiEvent) => void;
  readonly signal?: AbortSignal;
  /** 'manual' | 'scheduled' | 'catch-up' | 'retry' */
  readonly trigger?: string;
  /**
   * false: the run skips the lake's upkeep (maintainLake), left to the next sync or sink
   * publish. For runs in quick succession (the demo's backfilled nights, seconds apart),
   * where no version is past its retention yet and no day's sink parts are closed: the
   * upkeep would open a lake session to find nothing to do. Default true.
   */
  readonly lakeUpkeep?: boolean;
  /**
   * A data directory holding another account's figures is refused (first-contact.ts) unless
   * this is set: then this run's source becomes the directory's (`sync --force-source`).
   */
  readonly forceSource?: boolean;
  /** The demo's runs: its embedded simulator, on a new port at each start, is one source. */
  readonly demoSource?: boolean;
}

export interface SyncSummary {
  readonly runId: string;
  readonly snapshotDate: string;
  readonly resumed: boolean;
  readonly unitsSkipped: number;
  readonly units: number;
  readonly rowsByTable: Record<string, number>;
  readonly rowsWritten: number;
  readonly requests: number;
  readonly retries: number;
  readonly throttled: number;
  /** 429s of an overloaded API, and the pauses they asked for. */
  readonly overloaded: number;
  readonly overloadWaitMs: number;
  /** 429s and RateLimit headers saying the rate was too high, and their pauses. */
  readonly rateLimited: number;
  readonly rateLimitWaitMs: number;
  readonly throttleWaitMs: number;
  readonly durationMs: number;
  /** The data checks of the staged figures (sql/checks/), run before the publish. */
  readonly checks: DataCheckSummary;
  /**
   * What the run warned about: at its start, segment filters naming unknown tags or networks;
   * at its end, values stored as NULL (one line per field and reason).
   */
  readonly warnings: readonly string[];
}

/**
 * The run, step by step: the first contact with the API (nothing is written before the key is
 * accepted, the account is the data directory's and the named campaigns exist), begin (or
 * resume) the run, extract the globals, plan and extract the units, check and publish; a
 * failure of a begun run is recorded before it is thrown.
 */
export async function runSync(config: SyncConfig, deps: SyncDeps): Promise<SyncSummary> {
  const session = openSession(config, deps);
  try {
    // A state file that is no database is a setting to fix (exit 2), found before any request.
    openStateDbReadOnly(config.dataDir)?.close();
    const api = deps.client ?? (await createClient(config, deps));
    session.client = api;
    const contact = await timed(session, 'firstContact', () =>
      firstContact(api, {
        baseUrl: config.baseUrl,
        dataDir: config.dataDir,
        ...(deps.demoSource ? { demo: true } : {}),
      }),
    );
    refuseOtherSource(contact, config.dataDir, deps.forceSource === true);
    let listed: ReadonlyMap<string, RawRecord> | undefined;
    if (config.campaigns.length) {
      listed = await listCampaigns(api);
      refuseUnknownCampaigns(config.campaigns, listed);
    }
    const begun = await begin(session, api, contact);
    // The tag ids the API lists, to check the segments' tag filters against.
    const tagIds = await timed(session, 'globals', () =>
      extractGlobals(
        begun,
        config.segments.some((s) => s.tags?.length),
        new Map([['workspaces', contact.workspacePages]]),
      ),
    );
    const warnings = segmentWarnings(config.segments, tagIds ?? new Set());
    for (const warning of warnings) deps.logger.warn(warning);
    const plan = await timed(session, 'plan', () =>
      planUnits(begun, session.segments, config.campaigns, listed),
    );
    await timed(session, 'units', () =>
      extractUnits(begun, plan, config.concurrency, (unitsDone) =>
        deps.onProgress?.(progressOf(session, begun.api, unitsDone, plan.units.length)),
      ),
    );
    for (const line of begun.refused?.lines() ?? []) {
      deps.logger.warn(line);
      warnings.push(line);
    }
    return await checkAndPublish(session, begun, plan, warnings);
  } catch (error) {
    await recordFailure(session, error);
    throw error;
  } finally {
    await session.client?.close().catch(() => {});
    session.state?.close();
  }
}

/** One run's state; what begin() opens is set as soon as it exists, for recordFailure and the cleanup. */
interface SyncSession {
  readonly config: SyncConfig;
  readonly deps: SyncDeps;
  readonly started: number;
  readonly snapshotDate: string;
  readonly segments: readonly Segment[];
  /** Opened once the API accepted the key and the account is the data directory's. */
  state?: StateDb;
  registry?: RunRegistry;
  run?: RunRow;
  client?: ApiClient;
  staging?: StagingWriter;
  /** Milliseconds per step, logged with the run's end ('sync steps'): where a sync's time goes. */
  readonly stepsMs: Record<string, number>;
}

/** The snapshot date (see resolveSnapshotDate: a relabelled run is warned about); no file opened yet. */
function openSession(config: SyncConfig, deps: SyncDeps): SyncSession {
  const started = Date.now();
  const { date: snapshotDate, relabelled } = resolveSnapshotDate(
    deps.now(),
    config.snapshotDate,
    config.force,
  );
  if (relabelled) deps.logger.warn({ snapshotDate }, relabelled);
  const segments = [ALL_SEGMENT, ...config.segments];
  return { config, deps, started, snapshotDate, segments, stepsMs: {} };
}

/** Runs one step of the sync, adding its wall time to session.stepsMs[name]. */
async function timed<T>(session: SyncSession, name: string, work: () => Promise<T>): Promise<T> {
  const started = performance.now();
  try {
    return await work();
  } finally {
    session.stepsMs[name] = Math.round((session.stepsMs[name] ?? 0) + performance.now() - started);
  }
}

/** A run begun: the extraction's context, and what the publish needs beside it. */
interface BegunRun extends ExtractContext {
  readonly state: StateDb;
  readonly run: RunRow;
  readonly resumed: boolean;
  readonly staging: StagingWriter;
}

/**
 * Opens the state database (created here at the first sync), starts the run or resumes the
 * unfinished one of the date, records the source, and opens the staging file.
 */
async function begin(session: SyncSession, api: ApiClient, contact: FirstContact): Promise<BegunRun> {
  const { config, deps, snapshotDate, segments } = session;
  const state = openStateDb(config.dataDir);
  session.state = state;
  const registry = new RunRegistry(state);
  session.registry = registry;
  const begun = registry.begin(
    snapshotDate,
    segments.map((s) => s.name),
    deps.trigger ?? 'manual',
    deps.now(),
  );
  session.run = begun.run;
  recordSource(session, state, contact);
  const runId = begun.run.runId;
  deps.logger.info(
    { runId, snapshotDate, resumed: begun.resumed, segments: segments.map((s) => s.name) },
    'sync started',
  );
  // The text repaired from here on is this run's (an earlier run in this process took its own).
  takeRepairedText();
  const writer = await timed(session, 'openStaging', () =>
    openStaging(config.dataDir, `sync-${snapshotDate}`),
  );
  session.staging = writer;
  return {
    state,
    run: begun.run,
    resumed: begun.resumed,
    staging: writer,
    api,
    writer,
    registry,
    runId,
    snapshotDate,
    done: registry.doneUnits(snapshotDate),
    refused: new RefusedValues(),
    seenAt: deps.now().toISOString(),
    logger: deps.logger,
    now: deps.now,
    ...(deps.signal ? { signal: deps.signal } : {}),
  };
}

/**
 * The source in the state database, under the run's lock (a sync of another account that
 * started meanwhile is refused here too): recorded at the first sync, replaced with
 * --force-source, and kept up to date with the account's workspaces as they come and go.
 */
function recordSource(session: SyncSession, state: StateDb, contact: FirstContact): void {
  const { config, deps } = session;
  const recorded = loadSourceRecord(state);
  const verdict = compareSource(recorded, contact.source);
  refuseOtherSource({ ...contact, recorded, verdict }, config.dataDir, deps.forceSource === true);
  const now = deps.now();
  if (verdict === 'adopt')
    deps.logger.info(
      { source: contact.source.baseUrl, workspaces: contact.source.workspaces.length },
      `this data directory's source is now ${describeSource(contact.source)}`,
    );
  else if (verdict === 'other' && recorded)
    deps.logger.warn(
      `--force-source: this data directory's source is now ${describeSource(contact.source)} (was ${describeSource(recorded)})`,
    );
  else if (
    recorded?.baseUrl === contact.source.baseUrl &&
    recorded.workspaces.join() === contact.source.workspaces.join()
  )
    return;
  const recordedAt = verdict === 'same' && recorded ? recorded.recordedAt : now.toISOString();
  saveSourceRecord(state, { ...contact.source, recordedAt }, now);
}

function progressOf(
  session: SyncSession,
  api: ApiClient,
  unitsDone: number,
  unitsTotal: number,
): SyncProgress {
  return {
    snapshotDate: session.snapshotDate,
    unitsDone,
    unitsTotal,
    requests: api.stats.requests,
    throttled: api.stats.throttled,
    throttleWaitMs: api.stats.throttleWaitMs,
    overloadWaitMs: api.stats.overloadWaitMs,
    rateLimitWaitMs: api.stats.rateLimitWaitMs,
    rateRps: api.stats.rateRps,
    rateReason: api.stats.rateReason,
    elapsedMs: Date.now() - session.started,
  };
}

/**
 * The staged figures' data checks, then the one atomic publish, the run marked succeeded, the
 * staging file removed and the lake's upkeep.
 */
async function checkAndPublish(
  session: SyncSession,
  begun: BegunRun,
  plan: UnitPlan,
  warnings: readonly string[],
): Promise<SyncSummary> {
  const { config, deps, snapshotDate, segments } = session;
  const { api, runId, run, staging: writer, registry } = begun;
  // The checks run on the staging file as its writer closes it: flushed, and checkpointed
  // unless its WAL is small, so a large sync's staged rows are in the file, not held in the
  // writer's buffer pool (where the schema-drift scan of a 170k-post sync ran out of the
  // staging's memory limit: npm run bench -- checks), and on the writer's DuckDB instance,
  // not one opened again for them.
  // 'checks' (sync steps) thus includes the staging's close.
  const checks = await timed(session, 'checks', () =>
    writer.closeAfter((connection) =>
      checkBeforePublish({
        stagingPath: writer.path,
        connection,
        snapshotDate,
        runId,
        segments,
        mode: config.checks ?? 'warn',
        dataDir: config.dataDir,
        ...(config.historyChecks ? { history: config.historyChecks } : {}),
        logger: deps.logger,
        state: begun.state,
        registry,
        now: deps.now,
      }),
    ),
  );
  const counters = {
    requests: api.stats.requests,
    retries: api.stats.retries,
    throttled: api.stats.throttled,
  };
  const finishedAt = deps.now();
  const published: PublishResult = await timed(session, 'publish', () =>
    publishSync(config.dataDir, {
      stagingPath: writer.path,
      snapshotDate,
      segments: segments.map((s) => s.name),
      run: runRecord(run, 'succeeded', finishedAt, counters, null),
    }),
  );
  registry.finish(run, { status: 'succeeded', rowsWritten: published.rowsWritten, counters }, finishedAt);
  // One line for the run: every value whose broken text (lone surrogates) was stored as U+FFFD.
  const repaired = takeRepairedText();
  if (repaired) deps.logger.warn({ repairedText: repaired.fields }, repairedTextMessage(repaired));
  await rm(writer.path, { force: true });
  await rm(`${writer.path}.wal`, { force: true });
  // Lake upkeep (closed days' sink parts merged, old versions removed): the data is
  // published, so a failure here is only logged.
  if (deps.lakeUpkeep !== false)
    await timed(session, 'upkeep', () =>
      maintainLake(config.dataDir).catch((error: unknown) =>
        deps.logger.warn(
          { err: oneLine(error) },
          'lake upkeep failed; the next sync or sink publish retries',
        ),
      ),
    );
  // Where the time went, for whoever profiles a sync (--verbose): not for the nightly reader.
  deps.logger.debug({ runId, snapshotDate, stepsMs: session.stepsMs }, 'sync steps');
  return summaryOf(session, begun, plan, { published, counters, checks, warnings });
}

function summaryOf(
  session: SyncSession,
  { api, runId, resumed }: BegunRun,
  plan: UnitPlan,
  outcome: {
    published: PublishResult;
    counters: RunCounters;
    checks: DataCheckSummary;
    warnings: readonly string[];
  },
): SyncSummary {
  return {
    runId,
    snapshotDate: session.snapshotDate,
    resumed,
    unitsSkipped: plan.units.length - plan.pending.length,
    units: plan.units.length,
    rowsByTable: outcome.published.rowsByTable,
    rowsWritten: outcome.published.rowsWritten,
    ...outcome.counters,
    overloaded: api.stats.overloaded,
    overloadWaitMs: api.stats.overloadWaitMs,
    rateLimited: api.stats.rateLimited,
    rateLimitWaitMs: api.stats.rateLimitWaitMs,
    throttleWaitMs: api.stats.throttleWaitMs,
    durationMs: Date.now() - session.started,
    checks: outcome.checks,
    warnings: [...outcome.warnings],
  };
}

/**
 * A run that failed before it began (the API down, the key refused) in a data directory that
 * already has its state, or started by serve: recorded too, so that status, /metrics and serve's
 * backoff see it. A new data directory of a sync by hand is left as it was (nothing is created
 * before the key is accepted), and a refusal of the settings (another account, unknown
 * campaigns: exit 2) is no run.
 */
function beginFailedRun(session: SyncSession, error: unknown): RunRow | undefined {
  const { config, deps, snapshotDate, segments } = session;
  if (error instanceof UserError && error.exitCode === USAGE_EXIT_CODE) return undefined;
  // serve's syncs (a trigger of its own) record theirs whatever the directory holds: it is serve's.
  const service = deps.trigger !== undefined && deps.trigger !== 'manual';
  if (!service && !existsSync(join(config.dataDir, STATE_DB_FILE))) return undefined;
  try {
    session.state ??= openStateDb(config.dataDir);
    session.registry ??= new RunRegistry(session.state);
    return session.registry.begin(
      snapshotDate,
      segments.map((s) => s.name),
      deps.trigger ?? 'manual',
      deps.now(),
    ).run;
  } catch {
    return undefined; // another sync running, a state file that will not open: the error stands alone
  }
}

/**
 * A run that began and failed is marked failed, in the state database and (best effort) in
 * the warehouse's sync_runs: the original error is what the caller must see.
 */
async function recordFailure(session: SyncSession, error: unknown): Promise<void> {
  const { config, deps, client } = session;
  await session.staging?.close().catch(() => {});
  const run = session.run ?? beginFailedRun(session, error);
  if (!run) return;
  const message = noSpaceMessage(error, config.dataDir)?.slice(0, 500) ?? oneLine(error);
  const counters = {
    requests: client?.stats.requests ?? 0,
    retries: client?.stats.retries ?? 0,
    throttled: client?.stats.throttled ?? 0,
  };
  const failed = session.registry!.finish(run, { status: 'failed', error: message, counters }, deps.now());
  // Analysts see failed runs too; the published facts stay untouched.
  await publishRunRecord(
    config.dataDir,
    runRecord(failed, 'failed', deps.now(), counters, message, true),
  ).catch((publishError: unknown) =>
    deps.logger.warn({ err: oneLine(publishError) }, 'could not record the failed run in the warehouse'),
  );
}

/** The API client of a run (or of a dry run's plan), from its config. */
export async function createClient(
  config: SyncConfig,
  deps: Pick<SyncDeps, 'onApiEvent' | 'signal'>,
): Promise<ApiClient> {
  const { createApiClient } = await import('../api/create-api-client.js');
  return createApiClient({
    baseUrl: config.baseUrl,
    apiKey: config.apiKey,
    rps: config.rps,
    concurrency: config.concurrency,
    pageSize: config.pageSize,
    maxRetries: config.maxRetries,
    timeoutMs: config.timeoutMs,
    ...(config.responseDeadlineMs ? { responseDeadlineMs: config.responseDeadlineMs } : {}),
    ...(config.ca ? { ca: config.ca } : {}),
    ...(deps.onApiEvent ? { onEvent: deps.onApiEvent } : {}),
    // SIGINT / SIGTERM stop a request in flight or a wait at once, not at the next page.
    ...(deps.signal ? { signal: deps.signal } : {}),
  });
}

function runRecord(
  run: RunRow,
  status: string,
  finishedAt: Date,
  counters: RunCounters,
  error: string | null,
  alreadySummed = false,
): SyncRunRecord {
  return {
    run_id: run.runId,
    started_at: run.startedAt,
    finished_at: finishedAt.toISOString(),
    status,
    snapshot_date: run.snapshotDate,
    requests: alreadySummed ? run.requests : run.requests + counters.requests,
    retries: alreadySummed ? run.retries : run.retries + counters.retries,
    throttled: alreadySummed ? run.throttled : run.throttled + counters.throttled,
    rows_written: run.rowsWritten,
    error,
  };
}

/** The first line of an error's message: what the runs table and sync_runs keep. */
export function oneLine(error: unknown): string {
  return firstLine(error).slice(0, 500);
}
