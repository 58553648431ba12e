import type { RawRecord } from '../api/types.js';
import { json, toId, toText, toTimestamp } from './coerce.js';
import type { Row, RowContext, TableRows } from './rows.js';

/** GET /v3/accounts/me/partner/workspaces → `workspaces`. Records without an id are skipped. */
export function normalizeWorkspaces(records: readonly RawRecord[], ctx: RowContext): TableRows {
  const workspaces: Row[] = [];
  for (const r of records) {
    const id = toId(r.id);
    if (id === null) continue;
    workspaces.push({
      workspace_id: id,
      name: toText(r.name),
      description: toText(r.description),
      created_at: toTimestamp(r.created_at),
      raw: json(r),
      first_seen_at: ctx.seenAt,
      last_seen_at: ctx.seenAt,
    });
  }
  return { workspaces };
}
