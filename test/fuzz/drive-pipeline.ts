/**
 * Drives the normalizers the way a sync does (src/extract: extract-globals.ts, extract-units.ts,
 * first-contact.ts's campaign list), from reply texts instead of HTTP: each text is read by the
 * client's own reply classifier (classifyReply: exact big integers, the depth bound) and pager
 * (paginate), then goes to the pipeline's resources (pipelines/campaign-pipeline.ts) for
 * normalization, repeated records dropped as a unit drops them.
 */
import fc from 'fast-check';
import {
  ALL_SEGMENT,
  CAMPAIGN_RESOURCES,
  GLOBAL_RESOURCES,
  type Segment,
} from '../../pipelines/campaign-pipeline.js';
import { classifyReply } from '../../src/api/classify-reply.js';
import { FatalApiError } from '../../src/api/errors.js';
import { isRecord } from '../../src/api/is-record.js';
import { paginate } from '../../src/api/paginate.js';
import type { ApiClient, RawRecord } from '../../src/api/types.js';
import { dropRepeated } from '../../src/extract/drop-repeated.js';
import { normalizeCampaignDetail } from '../../src/normalize/index.js';
import { RefusedValues } from '../../src/normalize/refused-values.js';
import type { RowContext, TableRows } from '../../src/normalize/rows.js';
import { pageText, recordText } from './api-records.js';

/** The replies of one small sync: one page of each list, a detail per campaign listed (at most two). */
export interface SyncReplies {
  readonly workspaces: string;
  readonly tags: string;
  readonly campaigns: string;
  readonly details: readonly string[];
  readonly posts: readonly string[];
  readonly influencers: readonly string[];
  /** Whether the unit is seen through a filtered segment too. */
  readonly segmented: boolean;
}

export const syncReplies: fc.Arbitrary<SyncReplies> = fc.record({
  workspaces: pageText('workspaces', 'workspaces'),
  tags: pageText('tags', 'tags'),
  campaigns: pageText('campaigns', 'campaigns', 3),
  details: fc.array(recordText('campaignDetail'), { minLength: 2, maxLength: 2 }),
  posts: fc.array(pageText('posts', 'posts'), { minLength: 2, maxLength: 2 }),
  influencers: fc.array(pageText('influencers', 'influencers'), { minLength: 2, maxLength: 2 }),
  segmented: fc.boolean(),
});

export const SNAPSHOT = '2026-11-20';
const SEEN_AT = '2026-11-20T22:30:00.000Z';
const PAGE_SIZE = 100;

/** The tables' rows of a sync of `replies`, and the values refused on the way. */
export async function normalizeReplies(
  replies: SyncReplies,
): Promise<{ rows: TableRows[]; refused: RefusedValues; segments: string[] }> {
  const refused = new RefusedValues();
  const api = replyApi(replies);
  const rows: TableRows[] = [];
  const ctx = (segment: string): RowContext => ({
    snapshotDate: SNAPSHOT,
    segment,
    seenAt: SEEN_AT,
    refused,
  });
  for (const resource of GLOBAL_RESOURCES)
    for await (const page of resource.pages(api)) rows.push(resource.normalize(page, ctx('all')));
  // first-contact.ts's listCampaigns: the list by id, as text.
  const listed = new Map<string, RawRecord>();
  for await (const page of api.campaigns())
    for (const record of page)
      if (record.id !== undefined && record.id !== null) listed.set(String(record.id), record);
  const segments: Segment[] = replies.segmented ? [ALL_SEGMENT, { name: 'brand' }] : [ALL_SEGMENT];
  for (const segment of segments)
    for (const [campaignId, record] of [...listed].slice(0, replies.details.length)) {
      const unitCtx = { ...ctx(segment.name), campaignId };
      rows.push(normalizeCampaignDetail(await api.campaign(campaignId), record, unitCtx));
      for (const resource of CAMPAIGN_RESOURCES) {
        const seen = new Set<string>();
        for await (const page of resource.pages(api, campaignId, {})) {
          rows.push(resource.normalize(dropRepeated(page, resource.uniqueBy, seen), unitCtx));
        }
      }
    }
  return { rows, refused, segments: segments.map((s) => s.name) };
}

/** An ApiClient whose replies are the texts given, read as the real client reads a 200 reply. */
function replyApi(replies: SyncReplies): ApiClient {
  const campaignIndex = new Map<string, number>();
  const indexOf = (campaignId: string) => {
    if (!campaignIndex.has(campaignId)) campaignIndex.set(campaignId, campaignIndex.size);
    return campaignIndex.get(campaignId)! % replies.details.length;
  };
  const list = (endpoint: string, key: string, text: string) =>
    paginate(async () => readReply(endpoint, text), endpoint, key, PAGE_SIZE);
  const api: Partial<ApiClient> = {
    workspaces: () => list('GET /v3/accounts/me/partner/workspaces', 'workspaces', replies.workspaces),
    tags: () => list('GET /v3/influencers/tags', 'tags', replies.tags),
    campaigns: () => list('GET /v3/influencers/campaigns', 'campaigns', replies.campaigns),
    async campaign(campaignId) {
      const endpoint = 'GET /v3/influencers/campaigns/{id}';
      const body = readReply(endpoint, replies.details[indexOf(campaignId)]!);
      // The requester's unwrap (src/api/requester.ts).
      const inner = isRecord(body) && isRecord(body.campaign) ? body.campaign : body;
      if (!isRecord(inner))
        throw new FatalApiError(`unexpected response on ${endpoint}: no campaign object`, endpoint);
      return inner;
    },
    campaignPosts: (id) =>
      list('GET /v3/influencers/campaigns/{id}/posts', 'posts', replies.posts[indexOf(id)]!),
    campaignInfluencers: (id) =>
      list(
        'GET /v3/influencers/campaigns/{id}/influencers',
        'influencers',
        replies.influencers[indexOf(id)]!,
      ),
  };
  return api as ApiClient;
}

/** A 200 reply's body as the client reads it; a reply it would retry or refuse throws FatalApiError. */
export function readReply(endpoint: string, text: string): unknown {
  const verdict = classifyReply(
    { sentAt: 0, reply: { status: 200, headers: { 'content-type': 'application/json' }, text } },
    { endpoint, now: 0, maxRetryAfterMs: 1000, backoffMs: () => 0 },
  );
  if (verdict.type === 'success') return verdict.reply.json;
  if (verdict.type === 'fatal') throw verdict.error;
  throw new FatalApiError(`${endpoint}: ${verdict.type}`, endpoint);
}
