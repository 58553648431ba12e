import type { RawRecord } from '../api/types.js';
import { json, toId, toText } from './coerce.js';
import type { Row, RowContext, TableRows } from './rows.js';

/** GET /v3/influencers/tags → `influencer_tags`. Records without an id are skipped. */
export function normalizeTags(records: readonly RawRecord[], ctx: RowContext): TableRows {
  const influencer_tags: Row[] = [];
  for (const r of records) {
    const id = toId(r.id);
    if (id === null) continue;
    influencer_tags.push({
      tag_id: id,
      name: toText(r.name),
      workspace_id: toId(r.workspace_id),
      raw: json(r),
      first_seen_at: ctx.seenAt,
      last_seen_at: ctx.seenAt,
    });
  }
  return { influencer_tags };
}
