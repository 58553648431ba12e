import { GLOBAL_RESOURCES } from '../../pipelines/campaign-pipeline.js';
import type { RawRecord } from '../api/types.js';
import {
  abortIfAsked,
  append,
  type ExtractContext,
  PendingCheckpoints,
  rowContext,
} from './extract-context.js';
import { recordIds } from './first-contact.js';

/**
 * The account-wide resources (workspaces, tags), each checkpointed once committed; a resource
 * in `fetched` (the workspaces the sync's first contact listed) is staged from its pages, not
 * fetched again. Returns the tag ids the API lists, for checking the segments' tag filters:
 * from the tags just fetched, or, when a resumed run skipped them, listed again if
 * `needTagIds`; otherwise undefined.
 */
export async function extractGlobals(
  ctx: ExtractContext,
  needTagIds: boolean,
  fetched: ReadonlyMap<string, readonly RawRecord[][]> = new Map(),
): Promise<Set<string> | undefined> {
  let tagIds: Set<string> | undefined;
  const checkpoints = new PendingCheckpoints(ctx);
  for (const resource of GLOBAL_RESOURCES) {
    if (ctx.done.has(`all|${resource.name}`)) continue;
    let rows = 0;
    if (resource.name === 'tags') tagIds = new Set();
    for await (const page of fetched.get(resource.name) ?? resource.pages(ctx.api)) {
      abortIfAsked(ctx.signal);
      if (tagIds && resource.name === 'tags') for (const id of recordIds(page)) tagIds.add(id);
      rows += await append(ctx.writer, resource.normalize(page, rowContext(ctx, 'all')));
    }
    checkpoints.add('all', resource.name, rows);
  }
  await checkpoints.settle();
  if (!tagIds && needTagIds) {
    tagIds = new Set();
    for await (const page of ctx.api.tags()) for (const id of recordIds(page)) tagIds.add(id);
  }
  return tagIds;
}
