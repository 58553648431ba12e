import { setFlagsFromString } from 'node:v8';

/** V8's flag that sizes its heap for memory rather than for speed. */
export const OPTIMIZE_FOR_SIZE = '--optimize-for-size';

/** An operator's own choice on node's command line: `--optimize-for-size`, `--no-optimize-for-size` (V8 spellings). */
export const OPTIMIZE_FOR_SIZE_CHOICE = /^--(no-?)?optimize[-_]for[-_]size$/;

/**
 * Tells V8 to keep this process's heap small: collect its old generation when it has grown a
 * little, not fourfold, and keep the young generation small. A sync's JS heap holds about 26 MB
 * of live objects, but without this V8 let its garbage grow to ~100 MB before collecting it
 * (130 MB on Node 24), so a sync of a million posts peaked at 300 MB of RSS on Node 20 and 400
 * MB on Node 24 started without `--max-semi-space-size`; with it, 237-238 MB on both. The price is
 * CPU: an unthrottled sync of a million posts takes 5 to 10% longer; a sync at the API's rate
 * waits on the API, not on V8 (bench/RESULTS.md, "V8 sized for memory").
 *
 * Set while the process runs, so it holds however the sync was started (cron, `serve`, the
 * `campaign-warehouse` executable). An operator's own `--optimize-for-size` or
 * `--no-optimize-for-size` on node's command line wins (V8 refuses both in NODE_OPTIONS); `serve`
 * passes it on to the syncs it starts (cliNodeFlags).
 * Returns whether it set the flag.
 */
export function favorMemoryOverSpeed(
  execArgv: readonly string[] = process.execArgv,
  setFlag: (flag: string) => void = setFlagsFromString,
): boolean {
  if (execArgv.some((flag) => OPTIMIZE_FOR_SIZE_CHOICE.test(flag))) return false;
  setFlag(OPTIMIZE_FOR_SIZE);
  return true;
}
