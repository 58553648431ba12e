/**
 * remote_behind (docs/deploy.md's events): the remote lake lags the local one. Checked by a
 * `sync` once its remote commit has settled, and by the sink's watch (`sink`, `serve`) every
 * tick, from the same files `status` reads: no request to the store.
 */
import { remoteLag } from '../remote/index.js';
import { firstLine } from '../util/first-line.js';
import type { Notifier } from './notifier.js';

/**
 * How long the remote may lag the local lake, with no commit failure seen by this process,
 * before it is an incident: a publish's commit takes seconds (minutes for a large upload), and
 * a commit that failed in another process (a cron sync, a killed one) is seen this way.
 */
export const REMOTE_BEHIND_AFTER_MS = 30 * 60_000;

/**
 * Opens remote_behind when `failure` (the last commit's one-line error, until a commit lands)
 * is set, or when a table has lagged the local lake for `afterMs`; closes it once no table
 * lags (a commit landed and nothing is left to commit).
 */
export async function checkRemoteBehind(
  notifier: Notifier,
  dataDir: string,
  url: string,
  failure: string | undefined,
  afterMs = REMOTE_BEHIND_AFTER_MS,
): Promise<void> {
  const behind = (await remoteLag(dataDir, url)).tables.filter((t) => t.behind);
  const now = notifier.now().getTime();
  const since = Math.min(now, ...behind.map((t) => t.behindSince ?? now));
  const details = {
    remote: url,
    tables_behind: behind.map((t) => t.table),
    ...(behind.length ? { behind_since: new Date(since).toISOString() } : {}),
    ...(failure === undefined ? {} : { reason: reasonOf(failure) }),
  };
  if (failure !== undefined)
    notifier.raise('remote_behind', `remote commit failed: ${reasonOf(failure)}`, details);
  else if (behind.length > 0 && now - since >= afterMs)
    notifier.raise(
      'remote_behind',
      `the remote ${url} lags the local lake since ${details.behind_since}: ${behind.length} table(s) not committed ` +
        `(${details.tables_behind.join(', ')}); the next publish or \`campaign-warehouse remote push\` catches up`,
      details,
    );
  else if (behind.length === 0)
    notifier.clear('remote_behind', `the remote ${url} holds every local publish again`, { remote: url });
}

const reasonOf = (failure: string) => firstLine(failure).replace(/^campaign-warehouse: /, '');
