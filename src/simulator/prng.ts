/**
 * Deterministic pseudo-random numbers for the simulator: the same seed and labels always
 * give the same sequence, so searches, documents and delivery decisions repeat run to run.
 */
import { createHash } from 'node:crypto';

export interface Rng {
  /** Uniform in [0, 1). */
  next(): number;
  /** Integer in [min, max], both included. */
  int(min: number, max: number): number;
  pick<T>(items: readonly T[]): T;
  /** Lowercase hex string of `length` characters. */
  hex(length: number): string;
}

/** A generator seeded from `seed` and any labels (e.g. 'documents', hook ordinal). */
export function createRng(seed: number, ...labels: readonly (string | number)[]): Rng {
  let state = createHash('sha256')
    .update([seed, ...labels].join(':'))
    .digest()
    .readUInt32LE(0);
  // mulberry32: tiny, fast and well distributed enough for fake data.
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number): number => min + Math.floor(next() * (max - min + 1));
  return {
    next,
    int,
    pick: <T>(items: readonly T[]): T => items[int(0, items.length - 1)]!,
    hex: (length: number): string => {
      let out = '';
      while (out.length < length) out += int(0, 15).toString(16);
      return out;
    },
  };
}

/** A stable hex digest of the seed and labels, for identifiers that must not collide. */
export function stableHex(length: number, seed: number, ...labels: readonly (string | number)[]): string {
  return createHash('sha256')
    .update([seed, ...labels].join(':'))
    .digest('hex')
    .slice(0, length);
}
