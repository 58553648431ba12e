import type { Logger } from '../util/logger.js';

/** One line a minute at most per kind: what a hostile client triggers by the thousand must not flood the log. */
export const NOTICE_INTERVAL_MS = 60_000;

/**
 * Warns of repeated events, one log line per kind per interval at most: the first event of a
 * kind is logged at once, later ones are counted, and the next line (once the interval has
 * passed) says how many events it stands for (`events`: those since the previous line, itself
 * included). The metrics count every event; the log says that it is happening.
 */
export class ThrottledNotice<Kind extends string> {
  readonly #logger: Logger;
  readonly #messages: Record<Kind, string>;
  readonly #intervalMs: number;
  readonly #now: () => number;
  readonly #state = new Map<Kind, { lastAt: number; unlogged: number }>();

  constructor(
    logger: Logger,
    messages: Record<Kind, string>,
    options: { intervalMs?: number; now?: () => number } = {},
  ) {
    this.#logger = logger;
    this.#messages = messages;
    this.#intervalMs = options.intervalMs ?? NOTICE_INTERVAL_MS;
    this.#now = options.now ?? (() => performance.now());
  }

  note(kind: Kind): void {
    const now = this.#now();
    const state = this.#state.get(kind);
    if (state && now - state.lastAt < this.#intervalMs) {
      state.unlogged += 1;
      return;
    }
    const events = (state?.unlogged ?? 0) + 1;
    this.#state.set(kind, { lastAt: now, unlogged: 0 });
    this.#logger.warn({ events, intervalSeconds: this.#intervalMs / 1000 }, this.#messages[kind]);
  }
}
