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
 * completed refresh. Inside the window: a UserError unless `force`, in which case the run
 * is labelled with the latest completed refresh (yesterday) although some figures may
 * already be today's.
 */
export function resolveSnapshotDate(now: Date, requested: string | undefined, force: boolean): string {
  if (insideRefreshWindow(now) && !force) {
    throw new UserError(
      'the API is refreshing its figures (18:00-21:00 UTC), so a snapshot now would mix two days: run after 21:00 UTC, or pass --force',
    );
  }
  return requested ?? latestCompletedRefresh(now);
}
