/**
 * Progress of a sync: a live bar on a terminal (campaign units done of total, requests,
 * 429 waits, request rate, ETA), structured JSON log lines otherwise (cron, CI, services).
 */
import cliProgress from 'cli-progress';
import type { Logger } from '../util/logger.js';
import type { SyncProgress } from './run-sync.js';

/** A log line at most this often when not on a terminal: enough to follow, not a flood. */
export const LOG_PROGRESS_EVERY_MS = 5_000;

export interface ProgressReporter {
  update(progress: SyncProgress): void;
  stop(): void;
}

export function createProgressReporter(logger: Logger, tty: boolean): ProgressReporter {
  if (!tty) {
    let last = 0;
    return {
      update(p) {
        const now = Date.now();
        if (now - last < LOG_PROGRESS_EVERY_MS && p.unitsDone < p.unitsTotal) return;
        last = now;
        logger.info({ ...p, rps: rate(p) }, 'sync progress');
      },
      stop() {},
    };
  }
  const bar = new cliProgress.SingleBar(
    {
      format:
        'sync {snapshot} [{bar}] {value}/{total} campaign units | {requests} requests | {rps} req/s | 429 waits {throttled} ({waitS}s) | ETA {eta_formatted}',
      stream: process.stderr,
      hideCursor: true,
      etaBuffer: 50,
    },
    cliProgress.Presets.shades_classic,
  );
  let started = false;
  return {
    update(p) {
      const payload = {
        snapshot: p.snapshotDate,
        requests: p.requests,
        rps: rate(p),
        throttled: p.throttled,
        waitS: Math.round(p.throttleWaitMs / 1000),
      };
      if (!started) {
        bar.start(p.unitsTotal, p.unitsDone, payload);
        started = true;
      } else bar.update(p.unitsDone, payload);
    },
    stop() {
      if (started) bar.stop();
    },
  };
}

function rate(p: SyncProgress): number {
  return p.elapsedMs > 0 ? Math.round((p.requests / p.elapsedMs) * 10_000) / 10 : 0;
}
