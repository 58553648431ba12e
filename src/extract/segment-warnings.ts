/**
 * What a segment's filters name that the API does not know: tag ids missing from its tags
 * list (the segment then gets no posts: the filter matches nothing), and networks outside the
 * API's documented list. Warnings, not errors: the API may add networks, and a tag may come
 * back; but a segment silently empty because of a typo must not pass unnoticed.
 */
import type { Segment } from '../../pipelines/campaign-pipeline.js';
import { SPEC_NETWORKS } from '../config/config-file-schema.js';

export function segmentWarnings(segments: readonly Segment[], knownTagIds: ReadonlySet<string>): string[] {
  const networks: ReadonlySet<string> = new Set(SPEC_NETWORKS);
  const warnings: string[] = [];
  for (const segment of segments) {
    const tags = (segment.tags ?? []).filter((tag) => !knownTagIds.has(tag));
    if (tags.length)
      warnings.push(
        `segment ${segment.name}: tag id(s) ${tags.join(', ')} not in the API's tags list (the filter matches nothing for them)`,
      );
    const sources = (segment.sources ?? []).filter((source) => !networks.has(source));
    if (sources.length)
      warnings.push(
        `segment ${segment.name}: network(s) ${sources.join(', ')} not known (known: ${SPEC_NETWORKS.join(', ')}); fetched anyway`,
      );
  }
  return warnings;
}
