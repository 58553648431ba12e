/**
 * Fault injection, each off by default and deterministic per seed: the n-th API request
 * gets the same fault in every run with the same options.
 */
import { mix32 } from './model/post-generator.js';

export interface FaultOptions {
  readonly error500Rate: number;
  readonly error503Rate: number;
  /** The connection is reset after part of the body was sent. */
  readonly resetRate: number;
  readonly slowRate: number;
  readonly slowMs: number;
  /** Content-Length announces the whole body, half of it is sent, then the connection ends. */
  readonly truncateRate: number;
  readonly invalidJsonRate: number;
  /** Share of requests answered 429 whatever the rate limit (the spec's "overloaded"). */
  readonly overloadRate: number;
  /** The Retry-After of an overload 429: from the first to the second (ms), drawn per request. */
  readonly overloadRetryAfterMs: readonly [number, number];
}

export const NO_FAULTS: FaultOptions = {
  error500Rate: 0,
  error503Rate: 0,
  resetRate: 0,
  slowRate: 0,
  slowMs: 2_000,
  truncateRate: 0,
  invalidJsonRate: 0,
  overloadRate: 0,
  overloadRetryAfterMs: [1_000, 1_000],
};

export type Fault = 'overload' | '500' | '503' | 'reset' | 'slow' | 'truncate' | 'invalid-json';

/** Picks the fault (if any) of request number `n`. */
export function pickFault(seed: number, n: number, f: FaultOptions): Fault | undefined {
  const r = mix32(seed, n, 0xfa017, 1) / 4294967296;
  const table: [Fault, number][] = [
    ['overload', f.overloadRate],
    ['500', f.error500Rate],
    ['503', f.error503Rate],
    ['reset', f.resetRate],
    ['slow', f.slowRate],
    ['truncate', f.truncateRate],
    ['invalid-json', f.invalidJsonRate],
  ];
  let edge = 0;
  for (const [fault, rate] of table) {
    edge += rate;
    if (r < edge) return fault;
  }
  return undefined;
}

/** The Retry-After (ms) of the overload 429 of request number `n`: deterministic per seed. */
export function overloadWait(seed: number, n: number, f: FaultOptions): number {
  const [min, max] = f.overloadRetryAfterMs;
  return Math.round(min + (mix32(seed, n, 0x0ad, 2) / 4294967296) * (max - min));
}
