/**
 * Sends the notifications of one process (serve, sink or a cron sync): incidents opened and
 * closed through the state database (incident-store.ts), so each is announced once when it
 * starts, once when it ends and daily while open; heartbeats; `notify test`. Sending never
 * gets in the way: every send runs in the background, retried and bounded (post-with-retry.ts);
 * failures are counted (/metrics) and logged with the target's host only. No payload carries
 * the API key or a hook secret: they are replaced before anything is sent.
 */

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { hasTargets, type NotifyConfig } from '../config/notify-config.js';
import { hooks } from '../state/schema.js';
import { openStateDb, STATE_DB_FILE, type StateDb } from '../state/state-db.js';
import { hostOf } from '../util/host-of.js';
import type { Logger } from '../util/logger.js';
import { type Incident, IncidentStore } from './incident-store.js';
import {
  type EventName,
  formatSlack,
  type IncidentKind,
  type NotifyMessage,
  SEVERITY,
} from './notify-event.js';
import { createPoster, type Poster, type PostResult } from './post-with-retry.js';

/** An incident still open is announced again this long after its last message. */
export const REMIND_EVERY_MS = 24 * 3_600_000;

/** A heartbeat stage, healthchecks.io's convention: <url>/start, <url>, <url>/fail (`log`: notify test). */
export type HeartbeatStage = 'start' | 'success' | 'fail' | 'log';

export interface TargetResult {
  readonly target: 'webhook' | 'heartbeat';
  /** The URL's host only. */
  readonly host: string;
  readonly format?: string;
  readonly result: PostResult;
}

export interface NotifierOptions {
  readonly config: NotifyConfig;
  /** undefined: `notify test`, which sends without a data directory (no incidents, no hook secrets). */
  readonly dataDir: string | undefined;
  readonly logger: Logger;
  now?(): Date;
  /** Tests: a poster with short retries and bounds. */
  readonly poster?: Poster;
  /** Values never sent (default: CW_API_KEY and CW_HOOK_SECRET; hook secrets are read from the state database). */
  readonly secrets?: readonly string[];
  /**
   * Open the data directory's state database only once it exists (a sync's notifier: a sync
   * refused before the API accepted its key leaves a new data directory as it was). Until then
   * no incident is open, and one raised is announced each time, with nothing to remember it by.
   */
  readonly stateOnceCreated?: boolean;
}

export class Notifier {
  readonly config: NotifyConfig;
  readonly #o: NotifierOptions;
  #state: StateDb | undefined;
  #store: IncidentStore | undefined;
  readonly #poster: Poster;
  readonly #pending = new Set<Promise<unknown>>();
  readonly #abort = new AbortController();
  #sent = 0;
  #failed = 0;
  #closed = false;

  constructor(options: NotifierOptions) {
    this.#o = options;
    this.config = options.config;
    if (options.dataDir !== undefined && !options.stateOnceCreated) this.#open(options.dataDir);
    this.#poster = options.poster ?? createPoster();
  }

  #open(dataDir: string): StateDb {
    const state = openStateDb(dataDir);
    this.#state = state;
    this.#store = new IncidentStore(state);
    return state;
  }

  /** The state database: opened here at first need when the options say to wait for its file. */
  #stateDb(): StateDb | undefined {
    if (this.#state || this.#closed) return this.#state;
    const dataDir = this.#o.dataDir;
    if (dataDir === undefined || !existsSync(join(dataDir, STATE_DB_FILE))) return undefined;
    return this.#open(dataDir);
  }

  /** Whether the data directory's state database is there to read (stateOnceCreated: once it exists). */
  get hasState(): boolean {
    return this.#stateDb() !== undefined;
  }

  /** True when a webhook or a heartbeat is configured (without one, nothing is sent or recorded). */
  get active(): boolean {
    return hasTargets(this.config);
  }

  /** Messages delivered and sends that failed for good (all retries spent, or bounded out). */
  stats(): { sent: number; failed: number } {
    return { sent: this.#sent, failed: this.#failed };
  }

  get logger(): Logger {
    return this.#o.logger;
  }

  now(): Date {
    return this.#o.now?.() ?? new Date();
  }

  /** The state database this notifier reads (runs, data checks, incidents). */
  get state(): StateDb {
    const state = this.#stateDb();
    if (!state) throw new Error('notifier: no data directory');
    return state;
  }

  /** The incidents: none before the state database exists (stateOnceCreated). */
  get #incidents(): IncidentStore | undefined {
    if (this.#o.dataDir === undefined) throw new Error('notifier: no data directory');
    this.#stateDb();
    return this.#store;
  }

  /** Opens (and announces) an incident, or updates the details of the open one silently. */
  raise(kind: IncidentKind, summary: string, details: Record<string, unknown> = {}): void {
    if (!this.active || this.#closed) return;
    const at = this.now();
    const incidents = this.#incidents;
    if (incidents && !incidents.open(kind, at, summary, details)) return;
    this.#o.logger.warn({ event: kind, summary: this.#scrub(summary) }, `incident: ${kind}`);
    this.#sendAll({
      event: kind,
      severity: SEVERITY[kind],
      summary,
      details,
      occurred_at: at.toISOString(),
      resolved: false,
    });
  }

  /** Closes (and announces the end of) the open incident of `kind`; nothing when none is open. */
  clear(kind: IncidentKind, summary?: string, details: Record<string, unknown> = {}): void {
    if (!this.active || this.#closed) return;
    const at = this.now();
    const ended = this.#incidents?.resolve(kind, at);
    if (!ended) return;
    const event: EventName = kind === 'sync_failed' ? 'sync_recovered' : kind;
    const text = summary ?? `resolved: ${ended.summary}`;
    this.#o.logger.info({ event, summary: this.#scrub(text) }, `incident resolved: ${kind}`);
    this.#sendAll({
      event,
      severity: 'info',
      summary: text,
      details: { ...details, started_at: ended.openedAt },
      occurred_at: at.toISOString(),
      resolved: true,
    });
  }

  /** Announces again each incident open for REMIND_EVERY_MS since its last message. */
  remind(): void {
    if (!this.active || this.#closed) return;
    for (const incident of this.#incidents?.takeDueReminders(this.now(), REMIND_EVERY_MS) ?? [])
      this.#sendAll(reminderOf(incident));
  }

  isOpen(kind: IncidentKind): boolean {
    const incident = this.#incidents?.get(kind);
    return incident !== undefined && incident.resolvedAt === null;
  }

  /** A heartbeat ping in the background; `body` is the run's summary line. */
  heartbeat(stage: Exclude<HeartbeatStage, 'log'>, body: string): void {
    const url = this.config.heartbeat;
    if (!url || this.#closed) return;
    this.#track(this.#ping(url, stage, body));
  }

  /** `notify test`: one test message to every target, awaited; each target's result. */
  async test(): Promise<TargetResult[]> {
    const message: NotifyMessage = {
      event: 'test',
      severity: 'info',
      summary: 'test message from campaign-warehouse notify test',
      details: {},
      occurred_at: this.now().toISOString(),
      resolved: false,
    };
    const sends: Promise<TargetResult>[] = this.config.webhooks.map(async (hook) => ({
      target: 'webhook' as const,
      host: hostOf(hook.url),
      format: hook.format,
      result: await this.#post(hook.url, message.event, this.#body(hook.format, message)),
    }));
    const beat = this.config.heartbeat;
    if (beat)
      sends.push(
        this.#ping(beat, 'log', message.summary).then((result) => ({
          target: 'heartbeat' as const,
          host: hostOf(beat),
          result,
        })),
      );
    return Promise.all(sends);
  }

  /**
   * Waits for the sends under way, at most `maxWaitMs`; what is still pending then is
   * abandoned (counted as failed). Then releases the connections and the state database.
   */
  async close(maxWaitMs: number): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    const all = Promise.allSettled([...this.#pending]);
    let timer: NodeJS.Timeout | undefined;
    const waited = await Promise.race([
      all.then(() => true),
      new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), maxWaitMs);
      }),
    ]);
    clearTimeout(timer);
    if (!waited) {
      this.#o.logger.warn(
        { pending: this.#pending.size, waitedMs: maxWaitMs },
        'notifications still unsent when stopping: dropped',
      );
      this.#abort.abort();
      await all;
    }
    await this.#poster.close().catch(() => undefined);
    this.#state?.close();
  }

  /** Resolves once every send started so far has finished (tests). */
  async settled(): Promise<void> {
    while (this.#pending.size) await Promise.allSettled([...this.#pending]);
  }

  #sendAll(message: NotifyMessage): void {
    for (const hook of this.config.webhooks)
      this.#track(this.#post(hook.url, message.event, this.#body(hook.format, message)));
  }

  #body(format: 'slack' | 'json', message: NotifyMessage): string {
    return JSON.stringify(format === 'slack' ? formatSlack(message) : message);
  }

  #ping(url: string, stage: HeartbeatStage, body: string): Promise<PostResult> {
    const base = url.replace(/\/+$/, '');
    const target = stage === 'success' ? base : `${base}/${stage}`;
    return this.#post(target, `heartbeat_${stage}`, body.slice(0, 10_000), 'text/plain; charset=utf-8');
  }

  async #post(url: string, event: string, body: string, type = 'application/json'): Promise<PostResult> {
    const result = await this.#poster.post(url, this.#scrub(body), type, this.#abort.signal);
    const target = hostOf(url);
    if (result.ok) {
      this.#sent += 1;
      this.#o.logger.info({ event, target, status: result.status }, 'notification sent');
    } else {
      this.#failed += 1;
      this.#o.logger.warn({ event, target, err: result.error }, 'notification failed');
    }
    return result;
  }

  #track(send: Promise<unknown>): void {
    this.#pending.add(send);
    void send.finally(() => this.#pending.delete(send));
  }

  /** The text with every secret this process knows replaced. */
  #scrub(body: string): string {
    let text = body;
    for (const secret of this.#secrets())
      if (secret.length >= 4) text = text.split(secret).join('[redacted]');
    return text;
  }

  #secrets(): string[] {
    const known = this.#o.secrets ?? [process.env.CW_API_KEY, process.env.CW_HOOK_SECRET];
    let stored: string[] = [];
    try {
      const state = this.#stateDb();
      if (state)
        stored = state.db
          .select({ secret: hooks.secret })
          .from(hooks)
          .all()
          .map((h) => h.secret);
    } catch {
      // A closed or busy database: the environment's secrets are still replaced.
    }
    return [...known.filter((s): s is string => typeof s === 'string' && s !== ''), ...stored];
  }
}

function reminderOf(incident: Incident): NotifyMessage {
  return {
    event: incident.kind,
    severity: SEVERITY[incident.kind],
    summary: `still open since ${incident.openedAt}: ${incident.summary}`,
    details: incident.details,
    occurred_at: incident.openedAt,
    resolved: false,
    reminder: true,
  };
}
