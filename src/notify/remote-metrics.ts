/**
 * The remote lake's gauges on /metrics (docs/remote.md, "Watching the remote"), per table,
 * from what this data directory last committed there and the lake's links: no request to the
 * store at a scrape. docs/alerts/ holds the rule over them (CampaignWarehouseRemoteBehind).
 */
import { Gauge, type Registry } from 'prom-client';
import { type RemoteLag, remoteLag } from '../remote/index.js';

/** One look serves both gauges of a scrape (their collect() run one after the other). */
const FRESH_MS = 1_000;

export function registerRemoteMetrics(registers: Registry[], dataDir: string, url: string | undefined): void {
  let read: { at: number; lag: RemoteLag } | undefined;
  const lag = (): RemoteLag | undefined => {
    if (!url) return undefined;
    const now = Date.now();
    try {
      if (!read || now - read.at > FRESH_MS) read = { at: now, lag: remoteLag(dataDir, url) };
    } catch {
      // A lake mid-upgrade, an unreadable file: no samples this scrape, rather than no /metrics.
      return undefined;
    }
    return read.lag;
  };
  new Gauge({
    name: 'cw_remote_last_commit_timestamp_seconds',
    help:
      "Unix time of the remote lake table's current snapshot, as this data directory last committed it " +
      '(0: never committed). Alert when old while cw_remote_behind is 1.',
    labelNames: ['table'],
    registers,
    collect() {
      this.reset();
      for (const t of lag()?.tables ?? []) this.set({ table: t.table }, (t.committedAt ?? 0) / 1000);
    },
  });
  new Gauge({
    name: 'cw_remote_behind',
    help:
      '1 when the local lake has a publish of the table that the remote lake has not committed ' +
      '(the next publish or `campaign-warehouse remote push` catches up), else 0.',
    labelNames: ['table'],
    registers,
    collect() {
      this.reset();
      for (const t of lag()?.tables ?? []) this.set({ table: t.table }, t.behind ? 1 : 0);
    },
  });
}
