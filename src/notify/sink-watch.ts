/**
 * The sink's side of the notifications (in `sink` and in `serve`): a tick that opens and
 * closes sink_publish_failing, sink_inbox_refusing, delivery_quarantined and remote_behind from
 * what the sink saw, and checks the
 * data directory's disk, the data's staleness and the reminders. Never throws into the sink.
 */
import type { Logger } from '../util/logger.js';
import { checkDisk, checkStale } from './conditions.js';
import type { Notifier } from './notifier.js';
import { checkRemoteBehind } from './remote-behind.js';

/** How often the sink checks: a minute's delay on a message is nothing against the conditions' hours. */
export const WATCH_EVERY_MS = 30_000;
/** Publishes failing this long (the bar: a blip of one publish is not an incident). */
export const PUBLISH_FAILING_AFTER_MS = 5 * 60_000;

/** What the sink tells the watch, and what /metrics reads of it. */
export class SinkHealth {
  /** Epoch ms of the first failed publish since the last successful one. */
  failingSince: number | undefined;
  publishedSinceStart = 0;
  /** The last remote commit's failure (its one line), until a commit lands. */
  remoteFailure: string | undefined;

  publishFailed(at: number): void {
    this.failingSince ??= at;
  }

  published(): void {
    this.failingSince = undefined;
    this.publishedSinceStart += 1;
  }

  /** Seconds publishes have been failing (0 when the last publish succeeded). */
  failingSeconds(now: number): number {
    return this.failingSince === undefined ? 0 : (now - this.failingSince) / 1000;
  }
}

export interface SinkWatchOptions {
  readonly notifier: Notifier;
  readonly dataDir: string;
  readonly logger: Logger;
  readonly health: SinkHealth;
  backlog(): number;
  /** Deliveries answered 503 because the inbox could not commit, since start. */
  refusals(): number;
  /** Successful inbox commits since start. */
  commits(): number;
  /** Deliveries quarantined in the inbox now (set aside by the loader, kept until an operator acts). */
  quarantined(): number;
  readonly everyMs?: number;
  readonly publishFailingAfterMs?: number;
  /** Disk limits (tests): default 10% / 2 GB. */
  readonly diskLimits?: { ratio: number; bytes: number };
  /** The URL of the remote lake the publishes are committed to (remote_behind); none: not checked. */
  readonly remote?: string | undefined;
}

export interface SinkWatch {
  /** One check now (the timer calls it; tests may too); resolves once its asynchronous checks are done. */
  tick(): Promise<void>;
  stop(): void;
}

export function startSinkWatch(o: SinkWatchOptions): SinkWatch {
  let refusalsSeen = 0;
  let commitsAtRefusal = 0;
  let looks: Promise<void> = Promise.resolve();
  let looking = false;
  const tick = async () => {
    try {
      const now = o.notifier.now().getTime();
      const failing = o.health.failingSince;
      if (failing !== undefined && now - failing >= (o.publishFailingAfterMs ?? PUBLISH_FAILING_AFTER_MS)) {
        const backlog = o.backlog();
        o.notifier.raise(
          'sink_publish_failing',
          `sink publishes have failed for ${Math.round((now - failing) / 60_000)} min; ${backlog} deliveries wait in the inbox`,
          { backlog, failing_since: new Date(failing).toISOString() },
        );
      } else if (failing === undefined && (o.health.publishedSinceStart > 0 || o.backlog() === 0)) {
        o.notifier.clear('sink_publish_failing', `sink publishes succeed again; backlog ${o.backlog()}`);
      }
      const refusals = o.refusals();
      if (refusals > refusalsSeen) {
        o.notifier.raise(
          'sink_inbox_refusing',
          `the sink answers 503: its inbox cannot commit (${refusals} deliveries refused since start; see the sink's log)`,
          { refused: refusals },
        );
        refusalsSeen = refusals;
        commitsAtRefusal = o.commits();
      } else if (o.commits() > commitsAtRefusal) {
        o.notifier.clear('sink_inbox_refusing', 'the sink commits deliveries to its inbox again');
      }
      checkQuarantine(o.notifier, o.quarantined());
      checkDisk(o.notifier, o.dataDir, o.diskLimits);
      checkStale(o.notifier);
      o.notifier.remind();
    } catch (error) {
      failed(error);
    }
    // The remote's look reads the lake's links asynchronously: the sink's event loop stays free.
    if (o.remote) {
      // One look at a time, each after the one before: a slow look (a first one at a long
      // history) is never run twice at once.
      const remote = o.remote;
      looks = looks.then(() =>
        checkRemoteBehind(o.notifier, o.dataDir, remote, o.health.remoteFailure).catch(failed),
      );
      await looks;
    }
  };
  const failed = (error: unknown) =>
    o.logger.warn(
      { err: (error as Error).message },
      'notifications: check failed; retrying at the next tick',
    );
  // The timer skips a tick while the one before is still running; a caller's tick() always runs.
  const timer = setInterval(() => {
    if (looking) return;
    looking = true;
    void tick().finally(() => {
      looking = false;
    });
  }, o.everyMs ?? WATCH_EVERY_MS);
  timer.unref();
  return { tick, stop: () => clearInterval(timer) };
}

/** delivery_quarantined while the inbox holds a quarantined delivery; its end once none is left. */
function checkQuarantine(notifier: Notifier, quarantined: number): void {
  if (quarantined > 0)
    notifier.raise(
      'delivery_quarantined',
      `${quarantined} acknowledged ${quarantined === 1 ? 'delivery is' : 'deliveries are'} set aside in the inbox: ` +
        'they cannot be published (the others are); see `campaign-warehouse sink quarantine list`',
      { quarantined },
    );
  else notifier.clear('delivery_quarantined', 'no delivery is quarantined any more');
}
