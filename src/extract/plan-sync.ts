/**
 * `sync --dry-run`: what a sync would do, found with the API's list endpoints only (workspaces,
 * tags, campaigns) and files opened read-only: its source and what the data directory says of
 * it, the snapshot date, the segments, the campaigns, the units an unfinished run already has,
 * and the requests left with the time they take at the configured rate. Nothing is written:
 * no state database, no warehouse, no staging file.
 */
import { existsSync } from 'node:fs';
import { ALL_SEGMENT } from '../../pipelines/campaign-pipeline.js';
import type { SyncConfig } from '../config/sync-config.js';
import { describeSource, type SyncSource } from '../state/source-record.js';
import { openStateDbReadOnly } from '../state/state-db.js';
import type { Logger } from '../util/logger.js';
import { catalogIsCurrent, publishedPath, withReadOnly } from '../warehouse/index.js';
import { firstContact, listCampaigns, refuseUnknownCampaigns, type SourceVerdict } from './first-contact.js';
import { createClient } from './run-sync.js';
import { segmentWarnings } from './segment-warnings.js';
import { resolveSnapshotDate } from './snapshot-date.js';

export interface SyncPlan {
  readonly dryRun: true;
  readonly snapshotDate: string;
  readonly source: SyncSource;
  /** adopt: recorded at the first sync; same; other: refused (exit 2) unless --force-source. */
  readonly sourceVerdict: SourceVerdict;
  readonly recordedSource: SyncSource | null;
  readonly segments: readonly string[];
  readonly campaigns: number;
  /** segments x campaigns; those an unfinished run of the date fetched are skipped. */
  readonly units: number;
  readonly unitsDone: number;
  readonly requests: number;
  /** previous-snapshot: pages counted from the published figures; minimum: one page per list. */
  readonly requestBasis: 'previous-snapshot' | 'minimum';
  readonly rps: number;
  readonly concurrency: number;
  /** requests / rps: the throttle spaces requests 1/rps apart (429 pauses not counted). */
  readonly estimatedSeconds: number;
  readonly warnings: readonly string[];
}

export interface PlanDeps {
  readonly logger: Logger;
  now(): Date;
  readonly forceSource?: boolean;
}

export async function planSync(config: SyncConfig, deps: PlanDeps): Promise<SyncPlan> {
  const { date: snapshotDate, relabelled } = resolveSnapshotDate(
    deps.now(),
    config.snapshotDate,
    config.force,
  );
  if (relabelled) deps.logger.warn({ snapshotDate }, relabelled);
  const api = await createClient(config, {});
  try {
    const contact = await firstContact(api, { baseUrl: config.baseUrl, dataDir: config.dataDir });
    const tagPages: string[][] = [];
    for await (const page of api.tags()) tagPages.push(page.map((tag) => String(tag.id)));
    const campaignsListed = await listCampaigns(api);
    if (config.campaigns.length) refuseUnknownCampaigns(config.campaigns, campaignsListed);
    const campaignIds = config.campaigns.length ? config.campaigns : [...campaignsListed.keys()];
    const segments = [ALL_SEGMENT, ...config.segments].map((s) => s.name);
    // Another account's data directory says nothing of this one's runs or figures.
    const ours = contact.verdict !== 'other' || deps.forceSource === true;
    const done = ours ? doneUnits(config.dataDir, snapshotDate) : new Set<string>();
    const counts = ours ? await previousCounts(config.dataDir) : new Map<string, Counts>();
    const pages = (n: number | undefined) => Math.max(1, Math.ceil((n ?? 0) / config.pageSize));
    let requests =
      contact.workspacePages.length +
      Math.max(1, tagPages.length) +
      Math.max(1, Math.ceil(campaignsListed.size / config.pageSize));
    let unitsDone = 0;
    for (const segment of segments)
      for (const id of campaignIds) {
        if (done.has(`${segment}|campaign:${id}`)) {
          unitsDone++;
          continue;
        }
        const known = counts.get(`${segment}|${id}`);
        requests += 1 + pages(known?.posts) + pages(known?.influencers);
      }
    const units = segments.length * campaignIds.length;
    return {
      dryRun: true,
      snapshotDate,
      source: contact.source,
      sourceVerdict: contact.verdict,
      recordedSource: contact.recorded ?? null,
      segments,
      campaigns: campaignIds.length,
      units,
      unitsDone,
      requests,
      requestBasis: counts.size ? 'previous-snapshot' : 'minimum',
      rps: config.rps,
      concurrency: config.concurrency,
      estimatedSeconds: Math.ceil(requests / config.rps),
      warnings: segmentWarnings(config.segments, new Set(tagPages.flat())),
    };
  } finally {
    await api.close().catch(() => {});
  }
}

export function formatPlan(plan: SyncPlan): string {
  const out = [`dry run: nothing was written; a sync now would do this`];
  out.push(`  source        ${describeSource(plan.source)}`);
  out.push(`                ${sourceLine(plan)}`);
  out.push(`  snapshot date ${plan.snapshotDate}`);
  out.push(`  segments      ${plan.segments.join(', ')}`);
  out.push(`  campaigns     ${plan.campaigns}`);
  out.push(
    `  units         ${plan.units} (segments x campaigns)${plan.unitsDone ? `, ${plan.unitsDone} already fetched by the unfinished run of the date` : ''}`,
  );
  out.push(
    `  requests      ${plan.requestBasis === 'minimum' ? 'at least ' : 'about '}${plan.requests} ` +
      (plan.requestBasis === 'minimum'
        ? '(one page of posts and of influencers per unit; more for larger campaigns)'
        : "(pages counted from the latest snapshot's posts and influencers)"),
  );
  out.push(
    `  time          about ${duration(plan.estimatedSeconds)} at ${plan.rps} requests/s (--rps), ${plan.concurrency} in flight; 429 pauses come on top`,
  );
  for (const warning of plan.warnings) out.push(`  warning       ${warning}`);
  return `${out.join('\n')}\n`;
}

function sourceLine(plan: SyncPlan): string {
  switch (plan.sourceVerdict) {
    case 'adopt':
      return "(recorded as the data directory's source at the first sync)";
    case 'same':
      return "(the data directory's source)";
    default:
      return `(NOT the data directory's source, ${plan.recordedSource ? describeSource(plan.recordedSource) : '?'}: a sync is refused without --force-source)`;
  }
}

function duration(seconds: number): string {
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ${seconds % 60} s`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/** Units an unfinished run of the date checkpointed (a finished run keeps none), read-only. */
function doneUnits(dataDir: string, snapshotDate: string): Set<string> {
  const state = openStateDbReadOnly(dataDir);
  if (!state) return new Set();
  try {
    const rows = state.sqlite
      .prepare('select segment, unit from checkpoints where snapshot_date = ?')
      .all(snapshotDate) as { segment: string; unit: string }[];
    return new Set(rows.map((r) => `${r.segment}|${r.unit}`));
  } finally {
    state.close();
  }
}

interface Counts {
  readonly posts: number;
  readonly influencers: number;
}

/**
 * Posts and influencers per segment and campaign in the latest published snapshot, read only
 * from a current catalog (a stale one would be rewritten first: not in a dry run).
 */
async function previousCounts(dataDir: string): Promise<Map<string, Counts>> {
  const counts = new Map<string, Counts>();
  if (!existsSync(publishedPath(dataDir)) || !catalogIsCurrent(dataDir)) return counts;
  await withReadOnly(dataDir, async (query) => {
    const result = await query(
      'select segment, campaign_id::varchar, num_posts, num_influencers from latest_campaign_metrics',
    );
    for (const [segment, id, posts, influencers] of result.rows)
      counts.set(`${segment}|${id}`, { posts: Number(posts ?? 0), influencers: Number(influencers ?? 0) });
  }).catch(() => {});
  return counts;
}
