import { setTimeout as sleep } from 'node:timers/promises';
import { isSwapping, type LakeGeneration, readGeneration } from '../lake/index.js';
import { retryReplacedFile } from './retry-replaced-file.js';

/** How many times a read query is run again because a publish replaced files while it ran. */
export const SWAPPED_RETRIES = 10;

/** How often, and how long at most, a reader waits for a publish's swaps (milliseconds) to end. */
const SWAP_POLL_MS = 2;
const SWAP_WAIT_MS = 2_000;

/**
 * Runs a read-only `query` over the lake's views so that it never reads part of a table: it
 * starts once no publish is swapping links, and runs again when a publish that replaced files
 * swapped its links while it ran (the lake's generation changed: lake-generation.ts), since
 * DuckDB may then have listed a folder of one version and missed files of the next, a partial
 * answer with no error. A query that failed meanwhile runs again too, as does one that failed
 * because a file it listed was replaced (retryReplacedFile).
 */
export async function readConsistently<T>(lake: string, query: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt += 1) {
    const before = await settledGeneration(lake);
    let result: T;
    try {
      result = await retryReplacedFile(lake, query);
    } catch (error) {
      if (attempt >= SWAPPED_RETRIES || readGeneration(lake).text === before.text) throw error;
      continue;
    }
    if (readGeneration(lake).text === before.text) return result;
    if (attempt >= SWAPPED_RETRIES)
      throw new Error(
        `warehouse: publishes replaced files under ${SWAPPED_RETRIES + 1} runs of this query in a row; run it again`,
      );
  }
}

/** The lake's generation once no live publish is swapping links (after SWAP_WAIT_MS, as it is). */
async function settledGeneration(lake: string): Promise<LakeGeneration> {
  const deadline = Date.now() + SWAP_WAIT_MS;
  let generation = readGeneration(lake);
  while (isSwapping(generation) && Date.now() < deadline) {
    await sleep(SWAP_POLL_MS);
    generation = readGeneration(lake);
  }
  return generation;
}
