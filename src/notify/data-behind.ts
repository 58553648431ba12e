import { latestCompletedRefresh, REFRESH_WINDOW_END_HOUR_UTC } from '../extract/snapshot-date.js';
import type { StateDb } from '../state/state-db.js';

/**
 * How long the warehouse has lacked a completed refresh, in seconds: from the end of the first
 * refresh window after the latest successfully synced snapshot (the 21:00 UTC of the next day)
 * to `now`; 0 while the latest completed refresh is synced. Before any success, from the
 * first recorded run's start; 0 when nothing ever ran. What `data_stale` and the
 * cw_data_behind_seconds gauge measure.
 */
export function dataBehindSeconds(state: StateDb, now: Date): number {
  const row = state.sqlite
    .prepare<[], { snapshot: string | null; first: string | null }>(
      `select max(case when status = 'succeeded' then snapshot_date end) as snapshot,
              min(started_at) as first
       from runs`,
    )
    .get();
  if (!row?.first) return 0;
  const synced = row.snapshot;
  if (synced !== null && synced >= latestCompletedRefresh(now)) return 0;
  const since =
    synced === null
      ? Date.parse(row.first)
      : Date.parse(`${synced}T00:00:00Z`) + 86_400_000 + REFRESH_WINDOW_END_HOUR_UTC * 3_600_000;
  return Math.max(0, (now.getTime() - since) / 1000);
}
