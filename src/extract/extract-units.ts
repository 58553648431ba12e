import pLimit from 'p-limit';
import { CAMPAIGN_RESOURCES, type Segment, segmentFilter } from '../../pipelines/campaign-pipeline.js';
import type { RawRecord } from '../api/types.js';
import { normalizeCampaignDetail } from '../normalize/index.js';
import { dropRepeated } from './drop-repeated.js';
import {
  abortIfAsked,
  append,
  type ExtractContext,
  PendingCheckpoints,
  rowContext,
} from './extract-context.js';
import { listCampaigns } from './first-contact.js';

/** One unit of work: a campaign seen through a segment, checkpointed as a whole. */
export interface Unit {
  readonly segment: Segment;
  readonly campaignId: string;
}

export interface UnitPlan {
  /** Every (segment, campaign) of the run, those done by an earlier attempt included. */
  readonly units: readonly Unit[];
  /** The units still to fetch. */
  readonly pending: readonly Unit[];
  /** The API's campaign list, by id: each unit's list record goes beside its detail. */
  readonly listed: ReadonlyMap<string, RawRecord>;
}

/**
 * The units of the run: the wanted campaigns (all the API lists when none are named) under
 * every segment. `listed` is the campaign list when the run already has it (named campaigns
 * are checked against it before the run begins: first-contact.ts); else it is fetched here.
 */
export async function planUnits(
  ctx: ExtractContext,
  segments: readonly Segment[],
  campaigns: readonly string[],
  listed?: ReadonlyMap<string, RawRecord>,
): Promise<UnitPlan> {
  const list = listed ?? (await listCampaigns(ctx.api));
  const wanted = campaigns.length ? campaigns : [...list.keys()];
  const units = segments.flatMap((segment) => wanted.map((campaignId) => ({ segment, campaignId })));
  const pending = units.filter((u) => !ctx.done.has(`${u.segment.name}|campaign:${u.campaignId}`));
  return { units, pending, listed: list };
}

/**
 * Fetches the pending units, `concurrency` at a time; `progress` hears how many units are
 * fetched, once before the first and after each. Returns once every unit is checkpointed.
 */
export async function extractUnits(
  ctx: ExtractContext,
  plan: UnitPlan,
  concurrency: number,
  progress: (unitsDone: number) => void,
): Promise<void> {
  let unitsDone = plan.units.length - plan.pending.length;
  progress(unitsDone);
  const limit = pLimit(concurrency);
  const checkpoints = new PendingCheckpoints(ctx);
  try {
    await Promise.all(
      plan.pending.map((unit) =>
        limit(async () => {
          await extractUnit(ctx, unit, plan.listed.get(unit.campaignId), checkpoints);
          unitsDone++;
          progress(unitsDone);
        }),
      ),
    );
  } catch (error) {
    // The units fetched before the failure are kept for the resume, as far as they commit.
    limit.clearQueue();
    await checkpoints.settle().catch(() => {});
    throw error;
  }
  await checkpoints.settle();
}

/**
 * One unit: its campaign's detail, then every page of its posts and influencers; then its
 * checkpoint, recorded once its rows are committed (not awaited here: PendingCheckpoints).
 */
async function extractUnit(
  ctx: ExtractContext,
  { segment, campaignId }: Unit,
  listed: RawRecord | undefined,
  checkpoints: PendingCheckpoints,
): Promise<void> {
  abortIfAsked(ctx.signal);
  const filter = segmentFilter(segment);
  const unitCtx = { ...rowContext(ctx, segment.name), campaignId };
  await ctx.writer.clearUnit(segment.name, campaignId);
  const detail = await ctx.api.campaign(campaignId, filter);
  let rows = await append(ctx.writer, normalizeCampaignDetail(detail, listed, unitCtx));
  for (const resource of CAMPAIGN_RESOURCES) {
    const seen = new Set<string>();
    for await (const page of resource.pages(ctx.api, campaignId, filter)) {
      abortIfAsked(ctx.signal);
      const records = dropRepeated(page, resource.uniqueBy, seen);
      rows += await append(ctx.writer, resource.normalize(records, unitCtx));
    }
  }
  ctx.logger.debug({ segment: segment.name, campaignId, rows }, 'campaign fetched');
  checkpoints.add(segment.name, `campaign:${campaignId}`, rows);
}
