/**
 * The influencer-campaign area (api-v3.md "Influencer campaigns"; shapes per api-profile.md):
 * workspaces, tags, the campaign list, a campaign's detail, posts and influencers, paged
 * and filtered by `sources` / `tags` (comma-separated or repeated).
 */
import { driftCampaignBody, driftInfluencer, driftListRecord, driftPost } from './drift.js';
import { errorResponse } from './error-response.js';
import { breakCampaignDetail, breakInfluencers, breakPosts, type Inconsistency } from './inconsistency.js';
import type { SimModel, ViewFilter } from './model/sim-model.js';
import { isPaging, type Paging, parsePaging } from './paging.js';
import type { SimRequest, SimResponse, SimRoute } from './route.js';

export interface InfluencerRouteOptions {
  readonly drift: boolean;
  /** Campaigns whose figures break the API's consistency rules (see inconsistency.ts). */
  readonly inconsistent?: readonly Inconsistency[];
}

export function createInfluencerRoutes(model: SimModel, options: InfluencerRouteOptions): SimRoute[] {
  const { catalog } = model;
  const drift = options.drift;
  const broken = options.inconsistent ?? [];
  const list = (key: string, records: () => Record<string, unknown>[], extra: Record<string, unknown> = {}) =>
    paged((paging) => {
      const all = records();
      const start = (paging.page - 1) * paging.pageSize;
      const items = all.slice(start, start + paging.pageSize);
      return { ...extra, [key]: drift ? items.map(driftListRecord) : items, total: all.length };
    });
  return [
    get(
      /^\/v3\/accounts\/me\/partner\/workspaces$/,
      list('workspaces', () => catalog.workspaces.map((w) => ({ ...w })), {
        count: catalog.workspaces.length,
      }),
    ),
    get(
      /^\/v3\/influencers\/tags$/,
      list('tags', () => catalog.tags.map((t) => ({ ...t }))),
    ),
    get(
      /^\/v3\/influencers\/campaigns$/,
      list('campaigns', () => catalog.campaigns.map((c) => model.campaignListRecord(c.index))),
    ),
    get(/^\/v3\/influencers\/campaigns\/([^/]+)$/, (req, [id]) =>
      withCampaign(model, id!, (index) => {
        const filter = viewFilter(req.query);
        const campaign = model.campaignDetail(id!, filter, model.figureDay(index, req.now));
        breakCampaignDetail(campaign, broken);
        return { status: 200, body: drift ? driftCampaignBody(campaign) : { campaign } };
      }),
    ),
    get(/^\/v3\/influencers\/campaigns\/([^/]+)\/posts$/, (req, [id]) =>
      withCampaign(model, id!, (index) =>
        paged((paging) => {
          const filter = viewFilter(req.query);
          const day = model.figureDay(index, req.now);
          const posts = model.posts(id!, filter, day, (paging.page - 1) * paging.pageSize, paging.pageSize);
          breakPosts(id!, posts, broken);
          return {
            posts: drift ? posts.map(driftPost) : posts,
            total: model.postIndexes(id!, filter, day).length,
          };
        })(req),
      ),
    ),
    get(/^\/v3\/influencers\/campaigns\/([^/]+)\/influencers$/, (req, [id]) =>
      withCampaign(model, id!, (index) =>
        paged((paging) => {
          const all = model.influencers(id!, viewFilter(req.query), model.figureDay(index, req.now));
          breakInfluencers(id!, all, broken);
          const start = (paging.page - 1) * paging.pageSize;
          const items = all.slice(start, start + paging.pageSize);
          return { influencers: drift ? items.map(driftInfluencer) : items, total: all.length };
        })(req),
      ),
    ),
  ];
}

/** Reads `sources` and `tags` in the comma form and the repeated form. */
export function viewFilter(query: URLSearchParams): ViewFilter {
  const values = (name: string) =>
    query
      .getAll(name)
      .flatMap((v) => v.split(','))
      .map((v) => v.trim())
      .filter((v) => v !== '');
  return { tags: values('tags'), sources: values('sources') };
}

function get(pattern: RegExp, handle: SimRoute['handle']): SimRoute {
  return { area: 'influencers', method: 'GET', pattern, handle };
}

function paged(build: (paging: Paging) => Record<string, unknown>): (req: SimRequest) => SimResponse {
  return (req) => {
    const paging = parsePaging(req.query);
    if (!isPaging(paging)) return paging;
    const { total, ...rest } = build(paging);
    return { status: 200, body: { ...rest, page: paging.page, page_size: paging.pageSize, total } };
  };
}

function withCampaign(model: SimModel, id: string, handle: (index: number) => SimResponse): SimResponse {
  const index = model.campaignIndex(id);
  if (index === undefined)
    return errorResponse(404, 'not_found', 'Not found', `campaign ${id} was not found`);
  return handle(index);
}
