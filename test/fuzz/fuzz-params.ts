/**
 * How many cases each fuzz property tries, and from which seed. `npm test` runs every property
 * with a fixed seed and a small count (the same cases on every machine); `npm run fuzz` sets
 * CW_FUZZ_RUNS (cases of the pure properties; the ones publishing through DuckDB or the sink run
 * a fiftieth of it) and, unless CW_FUZZ_SEED is set, a random seed. A failure prints its seed
 * and path (fast-check's report): `CW_FUZZ_SEED=<seed> npm run fuzz` runs it again.
 */
import type { Parameters } from 'fast-check';

/** The seed of `npm test`'s runs: any fixed value; 38 is the issue that asked for the tier. */
const FIXED_SEED = 38;
/** Pure cases per DuckDB or sink case when CW_FUZZ_RUNS scales both. */
const PUBLISH_SHARE = 50;

const asked = positive(process.env.CW_FUZZ_RUNS);
const seed = positive(process.env.CW_FUZZ_SEED) ?? (asked === undefined ? FIXED_SEED : randomSeed());

/** fast-check parameters for a pure property: `runs` cases in `npm test`, CW_FUZZ_RUNS in `npm run fuzz`. */
export function pureRuns<T>(runs: number): Parameters<T> {
  return { seed, numRuns: asked ?? runs };
}

/** For a property that publishes through DuckDB or the sink: a fiftieth of CW_FUZZ_RUNS, at least `runs`. */
export function publishRuns<T>(runs: number): Parameters<T> {
  const scaled = asked === undefined ? runs : Math.max(runs, Math.ceil(asked / PUBLISH_SHARE));
  return { seed, numRuns: scaled, endOnFailure: true };
}

function positive(text: string | undefined): number | undefined {
  const n = text === undefined ? Number.NaN : Number(text);
  return Number.isSafeInteger(n) && n >= 0 ? n : undefined;
}

function randomSeed(): number {
  const value = Math.floor(Math.random() * 2 ** 31);
  console.log(`fuzz: seed ${value} (CW_FUZZ_SEED=${value} runs these cases again)`);
  return value;
}

/** A property's time limit: vitest's default in `npm test`, an hour when CW_FUZZ_RUNS asks for more cases. */
export const FUZZ_TIMEOUT_MS = asked === undefined ? undefined : 3_600_000;
