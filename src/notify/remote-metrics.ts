/**
 * The remote lake's gauges on /metrics (docs/remote.md, "Watching the remote"), per table,
 * from what this data directory last committed there and the lake's links: no request to the
 * store at a scrape. docs/alerts/ holds the rule over them (CampaignWarehouseRemoteBehind).
 */
import { Gauge, type Registry } from 'prom-client';
import { type RemoteLag, remoteLag } from '../remote/index.js';

export function registerRemoteMetrics(registers: Registry[], dataDir: string, url: string | undefined): void {
  // One look serves both gauges of a scrape: prom-client starts every collect() before awaiting
  // any, so the second finds the first's look in flight. The look is asynchronous
  // (liveLakeFiles): the sink's event loop goes on acknowledging meanwhile.
  let inFlight: Promise<RemoteLag | undefined> | undefined;
  const lag = (): Promise<RemoteLag | undefined> => {
    if (!url) return Promise.resolve(undefined);
    inFlight ??= remoteLag(dataDir, url)
      // A lake mid-upgrade, an unreadable file: no samples this scrape, rather than no /metrics.
      .catch(() => undefined)
      .finally(() => {
        inFlight = undefined;
      });
    return inFlight;
  };
  new Gauge({
    name: 'cw_remote_last_commit_timestamp_seconds',
    help:
      "Unix time of the remote lake table's current snapshot, as this data directory last committed it " +
      '(0: never committed). Alert when old while cw_remote_behind is 1.',
    labelNames: ['table'],
    registers,
    async collect() {
      const found = await lag();
      this.reset();
      for (const t of found?.tables ?? []) this.set({ table: t.table }, (t.committedAt ?? 0) / 1000);
    },
  });
  new Gauge({
    name: 'cw_remote_behind',
    help:
      '1 when the local lake has a publish of the table that the remote lake has not committed ' +
      '(the next publish or `campaign-warehouse remote push` catches up), else 0.',
    labelNames: ['table'],
    registers,
    async collect() {
      const found = await lag();
      this.reset();
      for (const t of found?.tables ?? []) this.set({ table: t.table }, t.behind ? 1 : 0);
    },
  });
}
