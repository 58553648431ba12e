/**
 * Progress of a sync: a live bar on a terminal (campaign units done of total, requests,
 * request rate and the throttle's rate with why it is that, 429 waits for overload and for
 * the rate limit, ETA), structured JSON log lines otherwise (cron, CI, services), where
 * every change of the throttle's rate is a line of its own. Either way a long pause the API
 * asks for is logged as it starts (log-long-waits.ts). On a terminal, log lines go
 * through `log`: printed above the bar, never into it.
 */
import cliProgress from 'cli-progress';
import type { ApiEvent } from '../api/types.js';
import type { Logger } from '../util/logger.js';
import { logLongWaits } from './log-long-waits.js';
import type { SyncProgress } from './run-sync.js';

/** A log line at most this often when not on a terminal: enough to follow, not a flood. */
export const LOG_PROGRESS_EVERY_MS = 5_000;
/** The bar shows this much of the throttle's reason; the log has all of it. */
const REASON_WIDTH = 60;

export interface ProgressReporter {
  update(progress: SyncProgress): void;
  /** The API client's events: a change of rate is logged with its reason. */
  apiEvent(event: ApiEvent): void;
  /** Writes a finished line of text (ending in a newline) to stderr, above the bar if one is shown. */
  log(line: string): void;
  stop(): void;
}

export function createProgressReporter(logger: Logger, tty: boolean): ProgressReporter {
  const logWait = logLongWaits(logger);
  if (!tty) {
    let last = 0;
    return {
      update(p) {
        const now = Date.now();
        if (now - last < LOG_PROGRESS_EVERY_MS && p.unitsDone < p.unitsTotal) return;
        last = now;
        logger.info({ ...p, rps: rate(p), rateRps: round1(p.rateRps) }, 'sync progress');
      },
      apiEvent(e) {
        logWait(e);
        if (e.type === 'rate')
          logger.info({ rateRps: round1(e.rps), reason: e.reason }, 'request rate changed');
      },
      log: (line) => process.stderr.write(line),
      stop() {},
    };
  }
  const bars = new cliProgress.MultiBar(
    {
      format:
        'sync {snapshot} [{bar}] {value}/{total} campaign units | {requests} requests, {rps} req/s | rate {rate}/s: {why} | 429 waits: overload {overloadS}s, rate limit {limitS}s | ETA {eta_formatted}',
      stream: process.stderr,
      hideCursor: true,
      etaBuffer: 50,
    },
    cliProgress.Presets.shades_classic,
  );
  let bar: cliProgress.SingleBar | undefined;
  return {
    update(p) {
      const payload = {
        snapshot: p.snapshotDate,
        requests: p.requests,
        rps: rate(p),
        rate: round1(p.rateRps),
        why:
          p.rateReason.length > REASON_WIDTH ? `${p.rateReason.slice(0, REASON_WIDTH - 1)}…` : p.rateReason,
        overloadS: Math.round(p.overloadWaitMs / 1000),
        limitS: Math.round(p.rateLimitWaitMs / 1000),
      };
      if (!bar) bar = bars.create(p.unitsTotal, p.unitsDone, payload);
      else bar.update(p.unitsDone, payload);
    },
    apiEvent: logWait,
    log(line) {
      if (!bar) process.stderr.write(line);
      else {
        bars.log(line);
        bars.update(); // shown now, not at the bar's next redraw
      }
    },
    stop() {
      if (bar) bars.stop();
      bar = undefined;
    },
  };
}

function rate(p: SyncProgress): number {
  return p.elapsedMs > 0 ? Math.round((p.requests / p.elapsedMs) * 10_000) / 10 : 0;
}

const round1 = (x: number) => Math.round(x * 10) / 10;
