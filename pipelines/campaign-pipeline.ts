/**
 * What the nightly extractor pulls and how it maps to tables. Declarative: this file only
 * describes; the engine (src/extract/run-sync.ts) fetches, normalizes, stages and publishes.
 *
 * - global resources, once per run (unfiltered): workspaces, influencer tags;
 * - the campaign list (enumerates the campaigns);
 * - per (segment, campaign) unit: the campaign detail, then every page of these resources,
 *   fetched with the segment's `tags` / `sources` filters and stored under its name.
 */
import type { ApiClient, RawRecord, SegmentFilter } from '../src/api/types.js';
import { ALL_SEGMENT as ALL_SEGMENT_NAME } from '../src/contracts/table-registry.js';
import {
  type CampaignRowContext,
  normalizeInfluencers,
  normalizePosts,
  normalizeTags,
  normalizeWorkspaces,
  toId,
} from '../src/normalize/index.js';
import type { RowContext, TableRows } from '../src/normalize/rows.js';

export interface GlobalResource {
  readonly name: 'workspaces' | 'tags';
  pages(client: ApiClient): AsyncIterable<RawRecord[]>;
  normalize(records: RawRecord[], ctx: RowContext): TableRows;
}

export interface CampaignResource {
  readonly name: 'posts' | 'influencers';
  pages(client: ApiClient, campaignId: string, filter: SegmentFilter): AsyncIterable<RawRecord[]>;
  normalize(records: RawRecord[], ctx: CampaignRowContext): TableRows;
  /**
   * The key its records are unique by within a unit: a record the API repeats on a later
   * page (its pages shifted while they were read) is staged once, the first time.
   */
  uniqueBy(record: RawRecord): string | null;
}

/** A named view of the data: the API's `tags` and/or `sources` filters. */
export interface Segment {
  readonly name: string;
  readonly tags?: readonly string[];
  readonly sources?: readonly string[];
}

/** The unfiltered view; entity tables and campaign-independent facts come from it only. */
export const ALL_SEGMENT: Segment = { name: ALL_SEGMENT_NAME };

export const GLOBAL_RESOURCES: readonly GlobalResource[] = [
  { name: 'workspaces', pages: (client) => client.workspaces(), normalize: normalizeWorkspaces },
  { name: 'tags', pages: (client) => client.tags(), normalize: normalizeTags },
];

export const CAMPAIGN_RESOURCES: readonly CampaignResource[] = [
  {
    name: 'posts',
    pages: (client, id, filter) => client.campaignPosts(id, filter),
    normalize: normalizePosts,
    uniqueBy: (record) => toId(record.id),
  },
  {
    name: 'influencers',
    pages: (client, id, filter) => client.campaignInfluencers(id, filter),
    normalize: normalizeInfluencers,
    uniqueBy: (record) => toId(record.id),
  },
];

export function segmentFilter(segment: Segment): SegmentFilter {
  return {
    ...(segment.tags?.length ? { tags: segment.tags } : {}),
    ...(segment.sources?.length ? { sources: segment.sources } : {}),
  };
}
