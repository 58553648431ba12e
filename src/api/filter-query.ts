import type { SegmentFilter } from './types.js';

/**
 * The `sources` / `tags` query of a segment, comma-joined as api-profile.md fixes
 * (`?sources=instagram,tiktok&tags=12,40`); an empty or absent list is no filter at all.
 */
export function filterQuery(filter: SegmentFilter | undefined): Record<string, string | undefined> {
  return {
    sources: filter?.sources?.length ? filter.sources.join(',') : undefined,
    tags: filter?.tags?.length ? filter.tags.join(',') : undefined,
  };
}
