/**
 * Which day a sync's figures belong to. The API refreshes influencer metrics daily between
 * 18:00 and 21:00 UTC (api-v3.md, Limits): after 21:00 the figures are today's; before
 * 18:00 they are still yesterday's refresh; inside the window they may mix both, so a run
 * refuses to start there unless forced.
 */
import { UserError } from '../util/user-error.js';

export const REFRESH_WINDOW_START_HOUR_UTC = 18;
export const REFRESH_WINDOW_END_HOUR_UTC = 21;

const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The UTC date of the latest completed refresh window at `now`. */
export function latestCompletedRefresh(now: Date): string {
  const hour = now.getUTCHours();
  return hour >= REFRESH_WINDOW_END_HOUR_UTC ? isoDay(now.getTime()) : isoDay(now.getTime() - 86_400_000);
}

export function insideRefreshWindow(now: Date): boolean {
  const hour = now.getUTCHours();
  return hour >= REFRESH_WINDOW_START_HOUR_UTC && hour < REFRESH_WINDOW_END_HOUR_UTC;
}

/**
 * The snapshot date of a run starting at `now`: the requested one, else the latest
 * completed refresh. The API serves only its current figures, so:
 * - inside the window: a UserError unless `force`, in which case the run is labelled with the
 *   latest completed refresh (yesterday) although some figures may already be today's;
 * - a requested date after the latest completed refresh (in the future, or today before the
 *   window closed) is always refused: no figures of that day exist yet;
 * - a requested date before it is refused unless `force`: the figures stored under it would be
 *   the current ones. `relabelled` then says so (the caller prints it as one line).
 */
export function resolveSnapshotDate(
  now: Date,
  requested: string | undefined,
  force: boolean,
): { readonly date: string; readonly relabelled?: string } {
  const latest = latestCompletedRefresh(now);
  if (requested === undefined || requested === latest) {
    if (insideRefreshWindow(now) && !force) {
      throw new UserError(
        'the API is refreshing its figures (18:00-21:00 UTC), so a snapshot now would mix two days: run after 21:00 UTC, or pass --force',
      );
    }
    return { date: latest };
  }
  if (requested > latest) {
    const today = isoDay(now.getTime());
    throw new UserError(
      requested > today
        ? `--snapshot-date: ${requested} is in the future (today is ${today} UTC); the latest completed refresh is ${latest}`
        : `--snapshot-date: ${requested}: today's refresh (18:00-21:00 UTC) has not completed yet; the latest completed refresh is ${latest}`,
    );
  }
  if (!force) {
    throw new UserError(
      `--snapshot-date: ${requested} is not the latest completed refresh (${latest}): the API serves only its current figures, so they would be stored as ${requested}'s; pass --force to do it anyway`,
    );
  }
  return {
    date: requested,
    relabelled: `--snapshot-date ${requested} --force: the figures stored are the API's current ones (the ${latest} refresh), not ${requested}'s`,
  };
}
