import { setFlagsFromString } from 'node:v8';

/** V8's flag that sizes its heap for memory rather than for speed. */
export const OPTIMIZE_FOR_SIZE = '--optimize-for-size';

/** An operator's own choice on node's command line: `--optimize-for-size`, `--no-optimize-for-size` (V8 spellings). */
export const OPTIMIZE_FOR_SIZE_CHOICE = /^--(no-?)?optimize[-_]for[-_]size$/;

/**
 * Tells V8 to keep this process's heap small: collect its old generation when it has grown a
 * little, not fourfold, and keep the young generation small. A sync's JS heap holds little
 * live data, but without this V8 let its garbage grow to several times that before collecting
 * it, so a large sync's RSS peaked well above what it needs, most on Node 24. The price is
 * CPU: an unthrottled large sync takes a little longer; a sync at the API's rate waits on the
 * API, not on V8 (figures: bench/RESULTS.md, "V8 sized for memory" and "Figures moved out of
 * code comments").
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
