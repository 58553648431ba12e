/** The simulator's options, their defaults, and how a partial input is completed. */
import { type FaultOptions, NO_FAULTS } from './faults.js';
import type { RetryAfterFormat } from './format-retry-after.js';
import type { HookServiceOptions } from './hooks/hook-service.js';
import type { Inconsistency } from './inconsistency.js';
import { NO_HISTORY, type SimHistory } from './model/history.js';
import { DEFAULT_SIZE, type SimSize } from './model/sim-size.js';
import type { Area } from './route.js';

export interface SimulatorOptions {
  readonly host: string;
  readonly port: number;
  readonly seed: number;
  readonly size: SimSize;
  /** API key → the areas it is entitled to. */
  readonly keys: Readonly<Record<string, readonly Area[]>>;
  /**
   * A token bucket per simulator: `rps` refill, `burst` capacity. Its RateLimit-* headers
   * go on every answer unless `announce` is false (a server limiting without saying how).
   */
  readonly rateLimit?: { readonly rps: number; readonly burst: number; readonly announce?: boolean };
  readonly retryAfterFormat: RetryAfterFormat;
  readonly faults: FaultOptions;
  /** Schema drift on every influencer response (see drift.ts). */
  readonly drift: boolean;
  /** Campaigns whose figures break the API's own consistency rules (see inconsistency.ts). */
  readonly inconsistent: readonly Inconsistency[];
  /** Start of the simulated clock (default: the real time). */
  readonly startTime?: Date;
  /** How figures move over simulated days, and changes injected on chosen days (history.ts). */
  readonly history: SimHistory;
  readonly tls: boolean;
  readonly hooks: Partial<Omit<HookServiceOptions, 'seed' | 'now'>>;
}

export const DEFAULT_KEYS: Readonly<Record<string, readonly Area[]>> = {
  'sim-key': ['influencers', 'streaming', 'searches'],
  'sim-streaming-key': ['streaming', 'searches'],
  'sim-influencers-key': ['influencers'],
};

/**
 * What startSimulator accepts: any part of SimulatorOptions; `faults` and `size` may be
 * partial too (merged over NO_FAULTS / DEFAULT_SIZE), and `overloadRate` may be given at
 * the top level (it wins over faults.overloadRate).
 */
export type SimulatorInput = Partial<Omit<SimulatorOptions, 'faults' | 'size'>> & {
  readonly faults?: Partial<FaultOptions>;
  readonly size?: Partial<SimSize>;
  readonly overloadRate?: number;
};

/** The options with every default applied. */
export function simulatorOptions(partial: SimulatorInput = {}): SimulatorOptions {
  const { overloadRate, ...rest } = partial;
  return {
    host: '127.0.0.1',
    port: 0,
    seed: 1,
    keys: DEFAULT_KEYS,
    retryAfterFormat: 'iso',
    drift: false,
    inconsistent: [],
    history: NO_HISTORY,
    tls: false,
    hooks: {},
    ...rest,
    size: { ...DEFAULT_SIZE, ...partial.size },
    faults: { ...NO_FAULTS, ...partial.faults, ...(overloadRate === undefined ? {} : { overloadRate }) },
  };
}
