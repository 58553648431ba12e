/**
 * One extraction: workspaces, tags, the campaign list, then for every (segment, campaign)
 * unit the campaign detail, all posts and all influencers, page by page into a private
 * staging file; then one atomic publish. Units are checkpointed, so a run that dies is
 * resumed by the next run of the same snapshot date.
 */
import { rm } from 'node:fs/promises';
import pLimit from 'p-limit';
import {
  ALL_SEGMENT,
  CAMPAIGN_RESOURCES,
  GLOBAL_RESOURCES,
  type Segment,
  segmentFilter,
} from '../../pipelines/campaign-pipeline.js';
import type { ApiClient, ApiEvent, RawRecord } from '../api/types.js';
import type { SyncConfig } from '../config/sync-config.js';
import { normalizeCampaignDetail } from '../normalize/index.js';
import type { RowContext, TableRows } from '../normalize/rows.js';
import { openStateDb } from '../state/state-db.js';
import { firstLine } from '../util/first-line.js';
import type { Logger } from '../util/logger.js';
import { noSpaceMessage } from '../util/no-space.js';
import type { PublishResult, StagingWriter, SyncRunRecord } from '../warehouse/index.js';
import { maintainLake, openStaging, publishRunRecord, publishSync } from '../warehouse/index.js';
import { checkBeforePublish, type DataCheckSummary } from './check-before-publish.js';
import { dropRepeated } from './drop-repeated.js';
import { RunRegistry, type RunRow } from './run-registry.js';
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
  /** What the run warned about at its start: segment filters naming unknown tags or networks, unknown campaigns. */
  readonly warnings: readonly string[];
}

export async function runSync(config: SyncConfig, deps: SyncDeps): Promise<SyncSummary> {
  const started = Date.now();
  const { date: snapshotDate, relabelled } = resolveSnapshotDate(
    deps.now(),
    config.snapshotDate,
    config.force,
  );
  if (relabelled) deps.logger.warn({ snapshotDate }, relabelled);
  const segments: Segment[] = [ALL_SEGMENT, ...config.segments];
  const state = openStateDb(config.dataDir);
  const registry = new RunRegistry(state);
  let client: ApiClient | undefined;
  let staging: StagingWriter | undefined;
  let run: RunRow | undefined;
  try {
    const begun = registry.begin(
      snapshotDate,
      segments.map((s) => s.name),
      deps.trigger ?? 'manual',
      deps.now(),
    );
    run = begun.run;
    const runId = run.runId;
    deps.logger.info(
      { runId, snapshotDate, resumed: begun.resumed, segments: segments.map((s) => s.name) },
      'sync started',
    );
    client = deps.client ?? (await createClient(config, deps));
    staging = await openStaging(config.dataDir, `sync-${snapshotDate}`);
    const writer = staging;
    const done = registry.doneUnits(snapshotDate);
    const seenAt = deps.now().toISOString();
    const ctx = (segment: string): RowContext => ({ snapshotDate, segment, seenAt });
    const api = client;

    // The tag ids the API lists, to check the segments' filters against (below).
    let tagIds: Set<string> | undefined;
    for (const resource of GLOBAL_RESOURCES) {
      if (done.has(`all|${resource.name}`)) continue;
      let rows = 0;
      if (resource.name === 'tags') tagIds = new Set();
      for await (const page of resource.pages(api)) {
        abortIfAsked(deps.signal);
        if (tagIds && resource.name === 'tags') for (const id of recordIds(page)) tagIds.add(id);
        rows += await append(writer, resource.normalize(page, ctx('all')));
      }
      await writer.flush();
      registry.checkpoint(runId, snapshotDate, 'all', resource.name, rows, deps.now());
    }
    // A resumed run skipped the tags: list them again when a segment filters by tag.
    if (!tagIds && config.segments.some((s) => s.tags?.length)) {
      tagIds = new Set();
      for await (const page of api.tags()) for (const id of recordIds(page)) tagIds.add(id);
    }
    const warnings = segmentWarnings(config.segments, tagIds ?? new Set());
    for (const warning of warnings) deps.logger.warn(warning);

    const listed = new Map<string, RawRecord>();
    for await (const page of api.campaigns()) {
      for (const record of page)
        if (record.id !== undefined && record.id !== null) listed.set(String(record.id), record);
    }
    const wanted = config.campaigns.length ? config.campaigns : [...listed.keys()];
    const unknown = wanted.filter((id) => !listed.has(id));
    if (unknown.length) {
      warnings.push(`campaign(s) ${unknown.join(', ')} not in the API's campaign list: fetched anyway`);
      deps.logger.warn({ campaigns: unknown }, 'campaigns not in the API campaign list: fetched anyway');
    }

    const units = segments.flatMap((segment) => wanted.map((campaignId) => ({ segment, campaignId })));
    const pending = units.filter((u) => !done.has(`${u.segment.name}|campaign:${u.campaignId}`));
    let unitsDone = units.length - pending.length;
    const report = () =>
      deps.onProgress?.({
        snapshotDate,
        unitsDone,
        unitsTotal: units.length,
        requests: api.stats.requests,
        throttled: api.stats.throttled,
        throttleWaitMs: api.stats.throttleWaitMs,
        overloadWaitMs: api.stats.overloadWaitMs,
        rateLimitWaitMs: api.stats.rateLimitWaitMs,
        rateRps: api.stats.rateRps,
        rateReason: api.stats.rateReason,
        elapsedMs: Date.now() - started,
      });
    report();

    const limit = pLimit(config.concurrency);
    await Promise.all(
      pending.map(({ segment, campaignId }) =>
        limit(async () => {
          abortIfAsked(deps.signal);
          const filter = segmentFilter(segment);
          const unitCtx = { ...ctx(segment.name), campaignId };
          await writer.clearUnit(segment.name, campaignId);
          const detail = await api.campaign(campaignId, filter);
          let rows = await append(writer, normalizeCampaignDetail(detail, listed.get(campaignId), unitCtx));
          for (const resource of CAMPAIGN_RESOURCES) {
            const seen = new Set<string>();
            for await (const page of resource.pages(api, campaignId, filter)) {
              abortIfAsked(deps.signal);
              const records = dropRepeated(page, resource.uniqueBy, seen);
              rows += await append(writer, resource.normalize(records, unitCtx));
            }
          }
          await writer.flush();
          registry.checkpoint(runId, snapshotDate, segment.name, `campaign:${campaignId}`, rows, deps.now());
          unitsDone++;
          deps.logger.debug({ segment: segment.name, campaignId, rows }, 'campaign done');
          report();
        }),
      ),
    );

    await writer.close();
    const checks = await checkBeforePublish({
      stagingPath: writer.path,
      snapshotDate,
      runId,
      segments,
      mode: config.checks ?? 'warn',
      dataDir: config.dataDir,
      ...(config.historyChecks ? { history: config.historyChecks } : {}),
      logger: deps.logger,
      state,
      registry,
      now: deps.now,
    });
    const counters = {
      requests: api.stats.requests,
      retries: api.stats.retries,
      throttled: api.stats.throttled,
    };
    const finishedAt = deps.now();
    const published: PublishResult = await publishSync(config.dataDir, {
      stagingPath: writer.path,
      snapshotDate,
      segments: segments.map((s) => s.name),
      run: runRecord(run, 'succeeded', finishedAt, counters, null),
    });
    registry.finish(run, { status: 'succeeded', rowsWritten: published.rowsWritten, counters }, finishedAt);
    await rm(writer.path, { force: true });
    await rm(`${writer.path}.wal`, { force: true });
    // Lake upkeep (closed days' sink parts merged, old versions removed): the data is
    // published, so a failure here is only logged.
    await maintainLake(config.dataDir).catch((error: unknown) =>
      deps.logger.warn({ err: oneLine(error) }, 'lake upkeep failed; the next sync or sink publish retries'),
    );
    return {
      runId,
      snapshotDate,
      resumed: begun.resumed,
      unitsSkipped: units.length - pending.length,
      units: units.length,
      rowsByTable: published.rowsByTable,
      rowsWritten: published.rowsWritten,
      ...counters,
      overloaded: api.stats.overloaded,
      overloadWaitMs: api.stats.overloadWaitMs,
      rateLimited: api.stats.rateLimited,
      rateLimitWaitMs: api.stats.rateLimitWaitMs,
      throttleWaitMs: api.stats.throttleWaitMs,
      durationMs: Date.now() - started,
      checks,
      warnings,
    };
  } catch (error) {
    await staging?.close().catch(() => {});
    if (run) {
      const message = noSpaceMessage(error, config.dataDir)?.slice(0, 500) ?? oneLine(error);
      const counters = {
        requests: client?.stats.requests ?? 0,
        retries: client?.stats.retries ?? 0,
        throttled: client?.stats.throttled ?? 0,
      };
      const failed = registry.finish(run, { status: 'failed', error: message, counters }, deps.now());
      // Analysts see failed runs too; the published facts stay untouched. Best effort: the
      // original error is what the caller must see.
      await publishRunRecord(
        config.dataDir,
        runRecord(failed, 'failed', deps.now(), counters, message, true),
      ).catch((publishError: unknown) =>
        deps.logger.warn({ err: oneLine(publishError) }, 'could not record the failed run in the warehouse'),
      );
    }
    throw error;
  } finally {
    await client?.close().catch(() => {});
    state.close();
  }
}

async function createClient(config: SyncConfig, deps: SyncDeps): Promise<ApiClient> {
  const { createApiClient } = await import('../api/create-api-client.js');
  return createApiClient({
    baseUrl: config.baseUrl,
    apiKey: config.apiKey,
    rps: config.rps,
    concurrency: config.concurrency,
    pageSize: config.pageSize,
    maxRetries: config.maxRetries,
    timeoutMs: config.timeoutMs,
    ...(config.ca ? { ca: config.ca } : {}),
    ...(deps.onApiEvent ? { onEvent: deps.onApiEvent } : {}),
  });
}

async function append(writer: StagingWriter, rows: TableRows): Promise<number> {
  let count = 0;
  for (const list of Object.values(rows)) count += list?.length ?? 0;
  if (count) await writer.append(rows);
  return count;
}

function runRecord(
  run: RunRow,
  status: string,
  finishedAt: Date,
  counters: { requests: number; retries: number; throttled: number },
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

function recordIds(page: readonly RawRecord[]): string[] {
  return page.flatMap((record) => (record.id === undefined || record.id === null ? [] : [String(record.id)]));
}

function abortIfAsked(signal: AbortSignal | undefined): void {
  if (signal?.aborted)
    throw Object.assign(new Error('sync interrupted: run it again to resume'), { exitCode: 130 });
}

/** The first line of an error's message: what the runs table and sync_runs keep. */
export function oneLine(error: unknown): string {
  return firstLine(error).slice(0, 500);
}
