/**
 * The gauges alerting needs beyond the sink's own (sink-metrics.ts), registered on the sink's
 * registry: free space of the data directory, how far the data is behind, how long publishes
 * have failed, how far the remote lake lags, and the notifications sent and failed. docs/alerts/ holds the rules over them.
 */
import { Counter, Gauge, type Registry } from 'prom-client';
import type { StateDb } from '../state/state-db.js';
import { dataBehindSeconds } from './data-behind.js';
import { diskSpace } from './disk-space.js';
import type { Notifier } from './notifier.js';
import { registerRemoteMetrics } from './remote-metrics.js';
import type { SinkHealth } from './sink-watch.js';

export interface HealthSources {
  readonly dataDir: string;
  readonly state: StateDb;
  readonly health: SinkHealth;
  readonly notifier?: Notifier | undefined;
  /** The URL of the remote lake the publishes are committed to (cw_remote_*); none: no samples. */
  readonly remote?: string | undefined;
}

export function registerHealthMetrics(registry: Registry, s: HealthSources): void {
  const registers = [registry];
  new Gauge({
    name: 'cw_data_dir_free_bytes',
    help: "Bytes free (for the service's user) on the data directory's file system.",
    registers,
    collect() {
      this.set(diskSpace(s.dataDir)?.freeBytes ?? 0);
    },
  });
  new Gauge({
    name: 'cw_data_dir_size_bytes',
    help: "Size of the data directory's file system, in bytes.",
    registers,
    collect() {
      this.set(diskSpace(s.dataDir)?.totalBytes ?? 0);
    },
  });
  new Gauge({
    name: 'cw_data_behind_seconds',
    help:
      'Seconds since the first completed API refresh that has no successful snapshot (0 while the latest ' +
      'completed refresh is synced): data_stale fires at notify.staleAfterHours.',
    registers,
    collect() {
      this.set(dataBehindSeconds(s.state, new Date()));
    },
  });
  new Gauge({
    name: 'sink_publish_failing_seconds',
    help: 'Seconds since the first failed publish after the last successful one (0 when publishing works).',
    registers,
    collect() {
      this.set(s.health.failingSeconds(Date.now()));
    },
  });
  registerRemoteMetrics(registers, s.dataDir, s.remote);
  new Counter({
    name: 'cw_notifications_failed_total',
    help: 'Notifications and heartbeats that could not be delivered (every retry spent); each is logged.',
    registers,
    collect() {
      this.reset();
      this.inc(s.notifier?.stats().failed ?? 0);
    },
  });
  new Counter({
    name: 'cw_notifications_sent_total',
    help: 'Notifications and heartbeats delivered.',
    registers,
    collect() {
      this.reset();
      this.inc(s.notifier?.stats().sent ?? 0);
    },
  });
}
