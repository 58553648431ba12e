/**
 * The simulator's history: how a campaign's figures move from one simulated day to the next
 * when `live` (posts appear over the campaign's life, each post's interactions ramp up with
 * noise and keep growing, now and then a post loses a few likes), and changes injected on a
 * chosen day for chosen campaigns (what the warehouse's history checks must flag).
 * Everything is derived from (seed, campaign, post, day): no state, any day computed directly.
 */
import type { Campaign } from './entities.js';
import type { Network } from './networks.js';

/** What an injected change does to a campaign, from its day on (it persists). */
export const CHANGE_KINDS = ['fall', 'vanish', 'network', 'spike'] as const;
export type ChangeKind = (typeof CHANGE_KINDS)[number];

/**
 * A change injected from `day` on, for `campaigns`:
 *   fall     every post's figures halve (the campaign's totals fall);
 *   vanish   a fifth of the campaign's posts (at least one) vanish;
 *   network  every post on the network of the campaign's first post vanishes;
 *   spike    every post's figures are ten times what they were (engagement jumps tenfold).
 */
export interface InjectedChange {
  readonly day: string;
  readonly kind: ChangeKind;
  readonly campaigns: readonly string[];
}

export interface SimHistory {
  /** Figures of a live campaign (see the module comment); false: every post always there. */
  readonly live: boolean;
  readonly changes: readonly InjectedChange[];
}

export const NO_HISTORY: SimHistory = { live: false, changes: [] };

/** Share of a campaign's posts a `vanish` change removes. */
export const VANISH_SHARE = 0.2;
/** What `fall` and `spike` multiply figures by. */
export const FALL_FACTOR = 0.5;
export const SPIKE_FACTOR = 10;
/** Days over which posts are published after a campaign's start (post-generator.ts). */
export const PUBLISHING_DAYS = 60;
/** A post's interactions reach 1 - RAMP_START of their level at once, the rest over a few days. */
const RAMP_START = 0.6;
const RAMP_DAYS = 2;
/** Chance a post loses a few likes on a day, and only when it has at least this many. */
const LIKE_LOSS_CHANCE = 0.03;
const LIKE_LOSS_MIN_LIKES = 200;

/** 32-bit hash → [0, 1), salted apart from post-generator.ts's salts. */
type Unit = (c: number, i: number, salt: number) => number;

/** "DAY:KIND:CAMPAIGN[,CAMPAIGN…]", e.g. 2026-11-20:spike:5001,5003 (the simulator's --change). */
export function parseChange(text: string): InjectedChange {
  const match = /^(\d{4}-\d{2}-\d{2}):([a-z]+):([^\s:]+)$/.exec(text);
  const kind = match?.[2] as ChangeKind | undefined;
  if (!match || !kind || !CHANGE_KINDS.includes(kind))
    throw new Error(
      `--change "${text}": expected DAY:KIND:CAMPAIGN[,CAMPAIGN...] with KIND one of ${CHANGE_KINDS.join(', ')}`,
    );
  return { day: match[1]!, kind, campaigns: match[3]!.split(',') };
}

/** The day number (days since the epoch) of each change of the campaign, by kind. */
export class CampaignHistory {
  private readonly since = new Map<ChangeKind, number>();

  constructor(
    readonly history: SimHistory,
    campaign: Campaign,
    private readonly unit: Unit,
    dayNumber: (day: string) => number,
    readonly vanishingNetwork: Network,
  ) {
    for (const change of history.changes)
      if (change.campaigns.includes(campaign.id)) {
        const day = dayNumber(change.day);
        const earlier = this.since.get(change.kind);
        if (earlier === undefined || day < earlier) this.since.set(change.kind, day);
      }
  }

  /** Whether the history changes anything (else every post is always there, as before). */
  get active(): boolean {
    return this.history.live || this.since.size > 0;
  }

  private on(kind: ChangeKind, day: number): boolean {
    const since = this.since.get(kind);
    return since !== undefined && day >= since;
  }

  /** Whether post i is among the campaign's posts on `day`. */
  visible(c: number, i: number, network: Network, publishedDay: number, day: number): boolean {
    if (this.history.live && publishedDay > day) return false;
    if (this.on('vanish', day) && (i === 0 || this.unit(c, i, 90) < VANISH_SHARE)) return false;
    if (this.on('network', day) && network === this.vanishingNetwork) return false;
    return true;
  }

  /**
   * What post i's interactions are multiplied by on `day`: the ramp of a live post (most at
   * once, the rest over its first days, each day's step uneven yet never negative) and the
   * injected falls and spikes.
   */
  scale(c: number, i: number, publishedDay: number, day: number): number {
    let scale = 1;
    if (this.history.live) {
      const age = Math.max(0, day - publishedDay);
      // Jitter under one day keeps the ramp monotonic from one day to the next.
      const jittered = age + this.unit(c, i * 31 + age, 91) * 0.9;
      scale *= 1 - RAMP_START * Math.exp(-jittered / RAMP_DAYS);
    }
    if (this.on('fall', day)) scale *= FALL_FACTOR;
    if (this.on('spike', day)) scale *= SPIKE_FACTOR;
    return scale;
  }

  /** Likes a live post has lost on `day` (a few unlikes, undone by the next day's growth). */
  likesLost(c: number, i: number, likes: number, day: number): number {
    if (!this.history.live || likes < LIKE_LOSS_MIN_LIKES) return 0;
    const roll = this.unit(c, i * 131 + day, 92);
    return roll < LIKE_LOSS_CHANCE ? 1 + Math.floor((roll / LIKE_LOSS_CHANCE) * 5) : 0;
  }
}
